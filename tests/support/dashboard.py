"""Using the dashboard without a browser: sign in through the form, read CSRF tokens."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import httpx

from tests.support.server import LiveServer, local_client

PASSWORD = "correct-horse-battery"
_HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
_NEW_TOKEN = re.compile(r'data-testid="new-token"[^>]*>(dgs_[0-9A-Za-z]+)<')


def hidden_fields(html: str) -> dict[str, str]:
    return dict(_HIDDEN.findall(html))


def csrf_of(html: str) -> str:
    return hidden_fields(html)["csrf_token"]


def new_token_in(html: str) -> str:
    found = _NEW_TOKEN.search(html)
    assert found, "the page shows no new token"
    return found.group(1)


def browser(live: LiveServer) -> httpx.Client:
    """A client that keeps cookies and does not follow redirects, like a careful browser."""
    return local_client(base_url=live.url, follow_redirects=False)


def login_form(client: httpx.Client, next_path: str = "/") -> dict[str, str]:
    page = client.get("/login", params={"next": next_path})
    assert page.status_code == 200
    return hidden_fields(page.text)


def submit_login(
    client: httpx.Client, username: str, password: str, next_path: str = "/"
) -> httpx.Response:
    fields = login_form(client, next_path)
    return client.post("/login", data={**fields, "username": username, "password": password})


@contextlib.contextmanager
def sign_in(live: LiveServer, username: str, password: str = PASSWORD) -> Iterator[httpx.Client]:
    with browser(live) as client:
        answer = submit_login(client, username, password)
        assert answer.status_code == 303, answer.text
        yield client


def make_user(admin: httpx.Client, username: str, role: str, **extra: Any) -> dict[str, Any]:
    body = {"username": username, "password": PASSWORD, "role": role, **extra}
    answer = admin.post("/users", json=body)
    assert answer.status_code == 201, answer.text
    user: dict[str, Any] = answer.json()
    return user


def page_csrf(client: httpx.Client, path: str = "/settings/tokens") -> str:
    page = client.get(path)
    assert page.status_code == 200, page.text
    return csrf_of(page.text)


def create_token_in_dashboard(client: httpx.Client, name: str, scope: str) -> httpx.Response:
    return client.post(
        "/settings/tokens",
        data={"csrf_token": page_csrf(client), "name": name, "scope": scope},
    )

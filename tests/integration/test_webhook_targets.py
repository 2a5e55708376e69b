"""Webhook URLs through the API with the production rules (public https only): hosts
are judged and stored in their IDNA form, so look-alike spellings of loopback are
refused at creation, and an international host is kept as the resolver will see it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import WEBHOOKS_FOR_TESTS, Tokens, client_for
from tests.support.server import LiveServer

LOOK_ALIKES = [
    "https://①②⑦.0.0.1/hook",
    "https://127。0。0。1/hook",
    "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/hook",
    "https://[::127.0.0.1]/hook",
    "https://[::a9fe:a9fe]/latest/meta-data",  # ::169.254.169.254
]


@pytest.fixture(scope="module")
def public_only(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    rules = WEBHOOKS_FOR_TESTS.model_copy(update={"allow_private": False})
    server = LiveServer(create_app(make_settings(webhooks=rules))).start()
    yield server
    server.stop()


@pytest.fixture
def admin(public_only: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(public_only, tokens.admin) as client:
        yield client


@pytest.mark.parametrize("url", LOOK_ALIKES)
def test_look_alike_spellings_of_private_addresses_are_refused(
    admin: httpx.Client, url: str
) -> None:
    answer = admin.post("/webhooks", json={"url": url})
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["loc"] == ["body", "url"]
    assert admin.get("/webhooks").json()["items"] == []


def test_an_international_host_is_stored_in_idna_form(admin: httpx.Client) -> None:
    made = admin.post("/webhooks", json={"url": "https://Bücher.example:8443/in?x=1"})
    assert made.status_code == 201, made.text
    assert made.json()["url"] == "https://xn--bcher-kva.example:8443/in?x=1"
    changed = admin.patch(f"/webhooks/{made.json()['id']}", json={"url": "https://①②⑦.0.0.1/in"})
    assert changed.status_code == 422
    kept = admin.get(f"/webhooks/{made.json()['id']}").json()
    assert kept["url"] == "https://xn--bcher-kva.example:8443/in?x=1"

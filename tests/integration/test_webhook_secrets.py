"""Webhook signing secrets are encrypted at rest: never in the graph in plain text,
still signing every delivery, legacy plain ones adopted, keys rotated."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import neo4j
from cryptography.fernet import Fernet
from pydantic import SecretStr
from standardwebhooks import Webhook

from service.app import create_app
from service.domain import webhook_signing as signing
from service.settings import Settings
from tests.conftest import WEBHOOKS_FOR_TESTS, Tokens, client_for
from tests.support.keys import TEST_SECRET_KEY
from tests.support.neo4j_server import Neo4jTarget
from tests.support.receiver import Receiver
from tests.support.server import LiveServer


@contextmanager
def _server_with_keys(
    make_settings: Callable[..., Settings], token: str, *keys: str, dispatch: bool = False
) -> Iterator[httpx.Client]:
    hooks = WEBHOOKS_FOR_TESTS.model_copy(
        update={"secret_keys": tuple(SecretStr(k) for k in keys), "dispatch": dispatch}
    )
    server = LiveServer(create_app(make_settings(webhooks=hooks))).start()
    try:
        with client_for(server, token) as client:
            yield client
    finally:
        server.stop()


def _hook(admin: httpx.Client, url: str, types: list[str] | None = None) -> dict[str, Any]:
    response = admin.post("/webhooks", json={"url": url, **({"types": types} if types else {})})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _stored(driver: neo4j.Driver, hook_id: str) -> dict[str, Any]:
    records, _, _ = driver.execute_query("MATCH (w:Webhook {id: $id}) RETURN w", id=hook_id)
    return dict(records[0]["w"])


def test_no_property_holds_the_secret_and_deliveries_verify_with_it(
    make_settings: Callable[..., Settings], tokens: Tokens, driver: neo4j.Driver
) -> None:
    with (
        _server_with_keys(make_settings, tokens.admin, TEST_SECRET_KEY, dispatch=True) as admin,
        Receiver() as receiver,
    ):
        made = _hook(admin, receiver.url, ["asset.*"])
        stored = _stored(driver, made["id"])
        raw = made["secret"].removeprefix(signing.SECRET_PREFIX)
        assert all(raw not in str(value) for value in stored.values())
        assert str(stored["secret"]).startswith("fernet:")
        created = admin.post("/assets", json={"id": "sealed", "name": "n", "type": "table"})
        assert created.status_code == 201
        delivery = receiver.wait_for(1)[0]
    envelope = Webhook(made["secret"]).verify(delivery.body, delivery.headers)
    assert envelope["data"]["id"] == "sealed"


def test_an_admin_query_sees_only_the_sealed_secret(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    made = _hook(admin, "http://127.0.0.1:9/hook")
    answer = admin.post(
        "/query/cypher", json={"query": "MATCH (w:Webhook) RETURN w.secret AS secret"}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["rows"][0][0].startswith("fernet:")
    assert made["secret"].removeprefix(signing.SECRET_PREFIX) not in answer.text
    assert made["secret"] not in str(_stored(driver, made["id"]))


def test_a_plain_text_secret_from_before_still_signs_and_is_sealed_when_read(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    legacy = signing.new_secret()
    with Receiver() as receiver:
        made = _hook(admin, receiver.url)
        driver.execute_query(
            "MATCH (w:Webhook {id: $id}) SET w.secret = $secret", id=made["id"], secret=legacy
        )
        assert admin.post(f"/webhooks/{made['id']}/test").json()["delivered"] is True
        got = receiver.wait_for(1)[0]
    assert Webhook(legacy).verify(got.body, got.headers)["type"] == "webhook.test"
    assert str(_stored(driver, made["id"])["secret"]).startswith("fernet:")


def test_a_plain_text_secret_is_sealed_on_the_next_write(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    made = _hook(admin, "http://127.0.0.1:9/hook")
    legacy = signing.new_secret()
    driver.execute_query(
        "MATCH (w:Webhook {id: $id}) SET w.secret = $secret", id=made["id"], secret=legacy
    )
    assert admin.patch(f"/webhooks/{made['id']}", json={"enabled": False}).status_code == 200
    assert legacy not in str(_stored(driver, made["id"]))


def test_a_rotated_key_opens_old_secrets_and_seals_them_again_with_the_new_one(
    make_settings: Callable[..., Settings], tokens: Tokens, driver: neo4j.Driver
) -> None:
    new_key = Fernet.generate_key().decode()
    with Receiver() as receiver:
        with _server_with_keys(make_settings, tokens.admin, TEST_SECRET_KEY) as old:
            made = _hook(old, receiver.url)
        before = _stored(driver, made["id"])["secret"]
        with _server_with_keys(make_settings, tokens.admin, new_key, TEST_SECRET_KEY) as both:
            assert both.post(f"/webhooks/{made['id']}/test").json()["delivered"] is True
        assert _stored(driver, made["id"])["secret"] != before
        with _server_with_keys(make_settings, tokens.admin, new_key) as only_new:
            assert only_new.post(f"/webhooks/{made['id']}/test").json()["delivered"] is True
        got = receiver.wait_for(2)
    assert all(Webhook(made["secret"]).verify(g.body, g.headers) for g in got)


def test_a_wrong_key_is_a_clear_error_on_signing_only(
    make_settings: Callable[..., Settings], tokens: Tokens
) -> None:
    with _server_with_keys(make_settings, tokens.admin, TEST_SECRET_KEY) as right:
        made = _hook(right, "http://127.0.0.1:9/hook")
    wrong_key = Fernet.generate_key().decode()
    with _server_with_keys(make_settings, tokens.admin, wrong_key) as wrong:
        failed = wrong.post(f"/webhooks/{made['id']}/test")
        assert failed.status_code == 503
        assert failed.headers["retry-after"] == "60"
        problem = failed.json()
        assert problem["code"] == "secret_key_mismatch"
        assert "GOVERNANCE_SECRET_KEY" in problem["detail"]
        assert wrong.get(f"/webhooks/{made['id']}").status_code == 200
        assert wrong.get("/webhooks").status_code == 200
        assert wrong.patch(f"/webhooks/{made['id']}", json={"enabled": False}).status_code == 200
        assert wrong.get("/assets").status_code == 200


def test_without_a_key_creating_a_webhook_says_so(
    make_settings: Callable[..., Settings], tokens: Tokens
) -> None:
    with _server_with_keys(make_settings, tokens.admin) as keyless:
        refused = keyless.post("/webhooks", json={"url": "http://127.0.0.1:9/hook"})
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "60"
        assert refused.json()["code"] == "secret_key_missing"
        assert keyless.get("/webhooks").status_code == 200


def test_serve_on_neo4j_uri_without_a_key_refuses_to_start(neo4j_target: Neo4jTarget) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GOVERNANCE_"))}
    env |= {
        "NEO4J_URI": neo4j_target.uri,
        "NEO4J_USERNAME": neo4j_target.username,
        "NEO4J_PASSWORD": neo4j_target.password,
    }
    result = subprocess.run(
        [sys.executable, "-m", "service", "serve", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith("governance: GOVERNANCE_SECRET_KEY is not set")
    )

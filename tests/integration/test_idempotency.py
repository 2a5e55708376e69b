"""Retries: Idempotency-Key on POST answers a repeat without redoing the work."""

from __future__ import annotations

import concurrent.futures

import httpx
import neo4j
import orjson

from service.middleware.idempotency import SPOOL_IN_MEMORY_BYTES

BODY = {"id": "a", "name": "a", "type": "table"}


def test_a_repeat_gets_the_first_answer(writer: httpx.Client) -> None:
    first = writer.post("/assets", json=BODY, headers={"Idempotency-Key": "k1"})
    second = writer.post("/assets", json=BODY, headers={"Idempotency-Key": "k1"})
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second.headers["location"] == first.headers["location"]
    assert second.headers["idempotent-replayed"] == "true"
    assert writer.get("/assets/a").json()["version"] == 1


def test_without_a_key_a_repeat_is_a_conflict(writer: httpx.Client) -> None:
    writer.post("/assets", json=BODY)
    assert writer.post("/assets", json=BODY).status_code == 409


def test_the_same_key_with_another_body_is_422(writer: httpx.Client) -> None:
    writer.post("/assets", json=BODY, headers={"Idempotency-Key": "k2"})
    other = writer.post("/assets", json={**BODY, "id": "b"}, headers={"Idempotency-Key": "k2"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert writer.get("/assets/b").status_code == 404


def test_error_answers_are_replayed_too_but_keys_are_per_token(
    writer: httpx.Client, admin: httpx.Client
) -> None:
    writer.post("/assets", json=BODY)
    conflict = writer.post("/assets", json=BODY, headers={"Idempotency-Key": "k3"})
    assert conflict.status_code == 409
    assert writer.post("/assets", json=BODY, headers={"Idempotency-Key": "k3"}).status_code == 409
    admin.delete("/assets/a")
    assert admin.post("/assets", json=BODY, headers={"Idempotency-Key": "k3"}).status_code == 201


def test_concurrent_repeats_do_the_work_once(writer: httpx.Client, driver: neo4j.Driver) -> None:
    def post(_: int) -> int:
        return writer.post("/assets", json=BODY, headers={"Idempotency-Key": "race"}).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(post, range(8)))
    assert set(statuses) <= {201, 409}
    assert statuses.count(201) >= 1
    assert writer.get("/assets/a").json()["version"] == 1


def test_a_malformed_key_is_422(writer: httpx.Client) -> None:
    response = writer.post("/assets", json=BODY, headers={"Idempotency-Key": "x" * 300})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["header", "Idempotency-Key"]


def test_answers_holding_a_secret_are_never_kept(admin: httpx.Client, driver: neo4j.Driver) -> None:
    """A kept answer would store the token secret; the key is ignored there instead."""
    headers = {"Idempotency-Key": "tok-key"}
    first = admin.post("/tokens", json={"name": "t", "scopes": ["read"]}, headers=headers).json()
    second = admin.post("/tokens", json={"name": "t", "scopes": ["read"]}, headers=headers).json()
    assert first["id"] != second["id"]
    stored = driver.execute_query("MATCH (r:IdempotencyRecord) RETURN r.body AS body").records
    assert all(first["token"].encode() not in (r["body"] or b"") for r in stored)
    assert stored == []


def test_a_body_past_the_in_memory_spool_is_fingerprinted_and_replayed(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    """A bulk of 10,000 edges (about 1.5 MB) goes through the temporary file: the work
    is done once, a repeat is replayed, and a changed body is refused unwritten."""
    edges = [
        {"source": f"warehouse.raw.orders_{i:06d}_" + "s" * 40, "target": f"mart.orders_{i:06d}"}
        for i in range(10_000)
    ]
    assert len(orjson.dumps(edges)) > SPOOL_IN_MEMORY_BYTES
    headers = {"Idempotency-Key": "big", "Content-Type": "application/json"}
    first = writer.post("/lineage/bulk", content=orjson.dumps(edges), headers=headers)
    second = writer.post("/lineage/bulk", content=orjson.dumps(edges), headers=headers)
    assert first.status_code == second.status_code == 200, first.text
    assert second.json() == first.json() and second.headers["idempotent-replayed"] == "true"
    changed = [*edges[:-1], {"source": "x", "target": "y"}]
    refused = writer.post("/lineage/bulk", content=orjson.dumps(changed), headers=headers)
    assert refused.status_code == 422 and refused.json()["code"] == "idempotency_key_reused"
    count = "MATCH ()-[e:LINEAGE]->() RETURN count(e) AS n"
    assert driver.execute_query(count).records[0]["n"] == 10_000
    assert writer.get("/assets/x").status_code == 404

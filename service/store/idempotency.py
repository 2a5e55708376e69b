"""Idempotency-Key records over `cypher/idempotency/`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from service import clock
from service.graph import Graph

RETENTION = timedelta(hours=24)
# A claim still pending after this long belongs to a process that died mid-request.
ABANDONED_AFTER = timedelta(minutes=2)


@dataclass(frozen=True)
class Claim:
    fresh: bool
    state: str
    request_hash: str | None
    status: int | None
    body: bytes | None
    headers_json: str | None


async def claim(graph: Graph, scope_key: str, request_hash: str) -> Claim:
    now = clock.now()
    rows = await graph.write(
        "idempotency.claim",
        scope_key=scope_key,
        request_hash=request_hash,
        now=clock.format_time(now),
        expires_at=clock.format_time(now + RETENTION),
        abandoned_before=clock.format_time(now - ABANDONED_AFTER),
    )
    record: dict[str, Any] = rows[0]["record"]
    return Claim(
        fresh=bool(rows[0]["fresh"]),
        state=record["state"],
        request_hash=record.get("request_hash"),
        status=record.get("status"),
        body=record.get("body"),
        headers_json=record.get("headers_json"),
    )


async def complete(
    graph: Graph, scope_key: str, status: int, body: bytes, headers_json: str
) -> None:
    await graph.write(
        "idempotency.complete",
        scope_key=scope_key,
        status=status,
        body=body,
        headers_json=headers_json,
    )


async def release(graph: Graph, scope_key: str) -> None:
    await graph.write("idempotency.release", scope_key=scope_key)


async def purge(graph: Graph, batch: int = 10_000) -> int:
    rows = await graph.write("idempotency.purge", now=clock.now_iso(), batch=batch)
    return int(rows[0]["removed"]) if rows else 0

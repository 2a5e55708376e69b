"""The soak's mixed load: reads (asset get, list, search, lineage walk) and writes
(asset create and patch, single edges, bulk edges) over a seeded graph, sent either
as fast as a fixed number of clients can (to find saturation) or at a fixed rate.

Every response is recorded: operation, when it started, how long it took, status.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

# operation -> share of requests
MIX = {
    "asset_get": 25,
    "asset_list": 10,
    "search": 10,
    "lineage": 15,
    "asset_create": 10,
    "asset_patch": 10,
    "edge": 12,
    "bulk": 8,
}
SEED_ASSETS = 2_000
BULK_EDGES = 50


@dataclass(frozen=True)
class Sample:
    op: str
    at: float  # seconds since the load began
    seconds: float
    status: int  # 0: no answer (connection error or timeout)


@dataclass
class Recorder:
    started: float = field(default_factory=time.monotonic)
    samples: list[Sample] = field(default_factory=list)


Request = tuple[str, str, str, object]  # op, method, path, json body


class Mix:
    """Draws operations with their arguments; new ids never repeat within a run."""

    def __init__(self, seed: int, run: str) -> None:
        self.rng = random.Random(seed)
        self.run = run
        self._ops = list(MIX)
        self._weights = list(MIX.values())
        self._counter = itertools.count()

    def seeded(self) -> str:
        return f"soak-{self.rng.randrange(SEED_ASSETS):05d}"

    def next(self) -> Request:
        op = self.rng.choices(self._ops, self._weights)[0]
        n = next(self._counter)
        if op == "asset_get":
            return op, "GET", f"/assets/{self.seeded()}", None
        if op == "asset_list":
            return op, "GET", "/assets?limit=50&type=table", None
        if op == "search":
            return op, "GET", f"/assets?q={self.rng.randrange(100):02d}&limit=20", None
        if op == "lineage":
            return op, "GET", f"/lineage/{self.seeded()}/downstream?depth=3", None
        if op == "asset_create":
            body = {"id": f"{self.run}-new-{n}", "name": f"new {n}", "type": "table"}
            return op, "POST", "/assets", body
        if op == "asset_patch":
            return op, "PATCH", f"/assets/{self.seeded()}", {"description": f"soak {n}"}
        if op == "edge":
            source, target = self.seeded(), self.seeded()
            target = "soak-root" if target == source else target  # no self-loops
            return op, "POST", "/lineage", {"source": source, "target": target}
        edges = [
            {"source": f"{self.run}-b{n}-{i}", "target": self.seeded()} for i in range(BULK_EDGES)
        ]
        return op, "POST", "/lineage/bulk", edges


async def send(client: httpx.AsyncClient, recorder: Recorder, request: Request) -> None:
    op, method, path, body = request
    started = time.monotonic()
    try:
        response = await client.request(method, path, json=body)
        status = response.status_code
    except httpx.HTTPError:
        status = 0
    recorder.samples.append(
        Sample(op, started - recorder.started, time.monotonic() - started, status)
    )


async def closed_loop(
    client: httpx.AsyncClient, mix: Mix, clients: int, seconds: float
) -> tuple[float, Recorder]:
    """Requests per second that `clients` back-to-back senders reach (saturation), and
    their responses."""
    recorder = Recorder()
    deadline = time.monotonic() + seconds

    async def sender() -> None:
        while time.monotonic() < deadline:
            await send(client, recorder, mix.next())

    await asyncio.gather(*(sender() for _ in range(clients)))
    return len(recorder.samples) / (time.monotonic() - recorder.started), recorder


async def open_loop(
    client: httpx.AsyncClient,
    mix: Mix,
    rate: float,
    seconds: float,
    on_tick: Callable[[float], None] | None = None,
    max_in_flight: int = 256,
) -> tuple[Recorder, int]:
    """Start one request every 1/rate seconds whatever the answers do (so slow answers
    show as latency, not as a slower load); answers how many ticks found
    `max_in_flight` requests still open and were skipped."""
    recorder = Recorder()
    in_flight: set[asyncio.Task[None]] = set()
    skipped = 0
    for i in itertools.count():
        due = recorder.started + i / rate
        if due - recorder.started >= seconds:
            break
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if on_tick:
            on_tick(due - recorder.started)
        if len(in_flight) >= max_in_flight:
            skipped += 1
            continue
        task = asyncio.create_task(send(client, recorder, mix.next()))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(in_flight, timeout=120)
    return recorder, skipped


async def seed(client: httpx.AsyncClient) -> None:
    """SEED_ASSETS assets in a layered graph (each feeds two of the next hundred)."""
    assets = [
        {"id": f"soak-{i:05d}", "name": f"soak asset {i:05d}", "type": "table"}
        for i in range(SEED_ASSETS)
    ]
    assets.append({"id": "soak-root", "name": "root", "type": "table"})
    for chunk in (assets[i : i + 50] for i in range(0, len(assets), 50)):
        await asyncio.gather(*(_until_done(client, "PUT", f"/assets/{a['id']}", a) for a in chunk))
    rng = random.Random(1)
    edges = [
        {
            "source": f"soak-{i:05d}",
            "target": f"soak-{min(SEED_ASSETS - 1, i + rng.randint(1, 100)):05d}",
        }
        for i in range(SEED_ASSETS - 1)
        for _ in range(2)
    ]
    await _until_done(
        client, "POST", "/lineage/bulk", [e for e in edges if e["source"] != e["target"]]
    )


async def _until_done(client: httpx.AsyncClient, method: str, path: str, body: object) -> None:
    """Seeding is set-up, not measurement: a 503 is retried after its Retry-After."""
    for _ in range(30):
        response = await client.request(method, path, json=body)
        if response.status_code != 503:
            break
        await asyncio.sleep(float(response.headers.get("retry-after", "1")))
    response.raise_for_status()

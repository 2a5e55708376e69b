"""The client's own cost: each operation through ``Client`` and through bare ``httpx``
(the library the client uses) with the same body and headers, timed in turns.

Reads GOVERNANCE_URL, GOVERNANCE_TOKEN, BENCH_ROOT (an asset with a downstream graph)
and BENCH_RUNS (default 21). Each run times a ``POST /lineage/bulk`` of 1,000 new
edges (``bench-python-<run><c|h>-<i>`` -> ``...-<i+1>``, c for the client, h for http,
so no two requests write the same edges) and a downstream traversal of BENCH_ROOT at
depth 3, both ways, alternating which goes first; 3 warm-up runs come before. Prints
one JSON line: ``{"language": "python", "bulk": {"client_ms": [...], "http_ms":
[...]}, "traversal": {...}}``. Run by ``bench.sh``, which ``bench/clients.py`` runs.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx

from governance_client import Client, __version__

WARMUP = 3
EDGES = 1_000
DEPTH = 3


def edges(method: str, run: str) -> list[dict[str, str]]:
    prefix = f"bench-python-{run}{method[0]}"
    return [{"source": f"{prefix}-{i}", "target": f"{prefix}-{i + 1}"} for i in range(EDGES)]


def timed(operation: Callable[[], Any]) -> float:
    start = time.perf_counter()
    operation()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    url = os.environ["GOVERNANCE_URL"].rstrip("/")
    token = os.environ["GOVERNANCE_TOKEN"]
    root = os.environ["BENCH_ROOT"]
    runs = int(os.environ.get("BENCH_RUNS", "21"))
    headers = {
        "User-Agent": f"governance-client-python/{__version__}",
        "Accept": "application/json",
        "Authorization": f"Bearer {token}",
    }
    posted = {**headers, "Content-Type": "application/json"}
    bulk_url = f"{url}/api/v1/lineage/bulk"
    traversal_url = f"{url}/api/v1/lineage/{quote(root, safe='')}/downstream"
    samples: dict[str, dict[str, list[float]]] = {
        "bulk": {"client_ms": [], "http_ms": []},
        "traversal": {"client_ms": [], "http_ms": []},
    }
    with Client(base_url=url, token=token) as client, httpx.Client(timeout=60) as http:

        def bulk_client(run: str) -> float:
            body = edges("client", run)
            return timed(lambda: client.lineage.bulk(body))

        def bulk_http(run: str) -> float:
            body = edges("http", run)

            def send() -> Any:
                payload = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
                response = http.post(bulk_url, content=payload, headers=posted)
                response.raise_for_status()
                return response.json()

            return timed(send)

        def traverse_client(run: str) -> float:
            return timed(lambda: client.lineage.downstream(root, depth=DEPTH))

        def traverse_http(run: str) -> float:
            def send() -> Any:
                response = http.get(traversal_url, params={"depth": DEPTH}, headers=headers)
                response.raise_for_status()
                return response.json()

            return timed(send)

        pairs = {"bulk": (bulk_client, bulk_http), "traversal": (traverse_client, traverse_http)}
        for run in range(-WARMUP, runs):
            name = f"w{-run}" if run < 0 else str(run)
            for operation, (through_client, through_http) in pairs.items():
                order = [("client_ms", through_client), ("http_ms", through_http)]
                for key, measure in order if run % 2 == 0 else reversed(order):
                    elapsed = measure(name)
                    if run >= 0:
                        samples[operation][key].append(round(elapsed, 3))
    print(json.dumps({"language": "python", **samples}))


if __name__ == "__main__":
    main()

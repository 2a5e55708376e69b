"""Webhook isolation: how late a healthy receiver gets its deliveries while three
receivers that accept connections and never answer hold 300+ pending deliveries,
and a fourth refuses every connection.

The service runs as it would in production (`governance serve` with the default
delivery timeout, poll interval, retry schedule, limits and breaker; only private
targets are allowed, for loopback), on a Neo4j of its own. First `--backlog` events
go to the stuck receivers alone, and the benchmark waits until they are fanned out
and the black holes hold attempts open. Then a healthy webhook joins, and an event
every `--interval` seconds for `--duration` seconds goes to all five. A delivery's
lag is the time from its event (`occurred_at`) to its arrival at the healthy
receiver; one that has not arrived `--grace` seconds after the last event counts as
missing, with the time waited as a lower bound of its lag. `--before COMMIT` first
runs the same measurement against the service at COMMIT, from a git worktree, on the
same Neo4j. Writes bench/RESULTS-webhooks.md and bench/results/webhooks.json.

    python -m bench.webhooks [--backlog 110] [--duration 90] [--interval 0.25]
                             [--before COMMIT]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import neo4j
import orjson

from bench.common import Figure, bench_neo4j, driver_for, environment, write_summary
from bench.crosstool import worktree
from tests.support.misbehaving import BlackHole
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess
from tests.support.receiver import reserved_port
from tests.support.waiting import eventually

ENV = {
    "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
    "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
    "GOVERNANCE_RATE_LIMIT_BURST": "100000",
}
STUCK = 3
TARGET_P99_S = 2.0


class LagReceiver:
    """Answers 200 at once and notes each delivery's lag: now minus the event's time."""

    def __init__(self) -> None:
        self.lags: dict[str, float] = {}  # asset id -> seconds
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                arrived = time.time()
                event = orjson.loads(body)
                occurred = datetime.fromisoformat(event["occurred_at"]).timestamp()
                with receiver._lock:
                    receiver.lags.setdefault(event["data"]["id"], arrived - occurred)
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def got(self) -> dict[str, float]:
        with self._lock:
            return dict(self.lags)

    def __enter__(self) -> LagReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _forget_webhooks(driver: neo4j.Driver) -> None:
    """Earlier runs' webhooks and deliveries, so this run's receivers are the only ones."""
    with driver.session() as session:
        while session.run(
            "MATCH (n) WHERE n:Webhook OR n:Delivery WITH n LIMIT 5000 DETACH DELETE n "
            "RETURN count(*) AS deleted"
        ).single(strict=True)["deleted"]:
            pass


def _pending(driver: neo4j.Driver, hook_ids: list[str]) -> int:
    records = driver.execute_query(
        "MATCH (d:Delivery {state: 'pending'}) WHERE d.webhook_id IN $ids RETURN count(d) AS n",
        ids=hook_ids,
    ).records
    return int(records[0]["n"])


def _attempts(driver: neo4j.Driver, hook_id: str) -> int:
    records = driver.execute_query(
        "MATCH (d:Delivery {webhook_id: $id}) RETURN sum(d.attempts) AS n", id=hook_id
    ).records
    return int(records[0]["n"] or 0)


@contextlib.contextmanager
def _service(target: Neo4jTarget, tree: Path | None) -> Iterator[httpx.Client]:
    """The service on `target`: this checkout's, or the one in `tree` (first on the
    path; PYTHONSAFEPATH keeps the working directory off it)."""
    env = {**ENV, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"} if tree else ENV
    with ServiceProcess(target, env, LOGS / "bench-webhooks.log").start(timeout=120) as service:
        token = service.admin_token("bench-webhooks")
        with httpx.Client(
            base_url=service.url + "/api/v1",
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        ) as client:
            yield client


def _hook(client: httpx.Client, url: str) -> str:
    made = client.post("/webhooks", json={"url": url, "types": ["asset.created"]})
    made.raise_for_status()
    return str(made.json()["id"])


def _asset(client: httpx.Client, asset_id: str) -> None:
    client.post("/assets", json={"id": asset_id, "name": "n", "type": "table"}).raise_for_status()


def measure(
    target: Neo4jTarget, driver: neo4j.Driver, tree: Path | None, args: argparse.Namespace
) -> dict[str, Any]:
    run = f"wh{time.time_ns():x}"
    _forget_webhooks(driver)
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(_service(target, tree))
        holes = [stack.enter_context(BlackHole()) for _ in range(STUCK)]
        refusing = stack.enter_context(reserved_port())
        healthy = stack.enter_context(LagReceiver())
        stuck = [_hook(client, hole.url) for hole in holes]
        refused = _hook(client, f"http://127.0.0.1:{refusing.getsockname()[1]}/hook")
        for i in range(args.backlog):
            _asset(client, f"{run}.backlog.{i}")
        eventually(
            lambda: _pending(driver, stuck) >= STUCK * args.backlog,
            timeout=120,
            what="the backlog fanned out",
        )
        for hole in holes:
            hole.wait_for(1, timeout=60)
        print(f"{_pending(driver, stuck)} deliveries pending on the black holes", flush=True)
        _hook(client, healthy.url)
        sent: dict[str, float] = {}
        started = time.monotonic()
        while time.monotonic() - started < args.duration:
            asset_id = f"{run}.fresh.{len(sent)}"
            _asset(client, asset_id)
            sent[asset_id] = time.time()
            time.sleep(args.interval)  # the pace of events, not a wait for the service
        with contextlib.suppress(AssertionError):
            eventually(lambda: healthy.got().keys() >= sent.keys(), timeout=args.grace)
        waited = time.time()
        got = healthy.got()
        return {
            "lags": [got.get(a, waited - at) for a, at in sent.items()],
            "missing": len(sent.keys() - got.keys()),
            "pending_at_end": _pending(driver, stuck),
            "black_hole_connections": [hole.connections for hole in holes],
            "black_hole_attempts": sum(_attempts(driver, h) for h in stuck),
            "refused_attempts": _attempts(driver, refused),
        }


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def render(runs: dict[str, dict[str, Any]], args: argparse.Namespace) -> str:
    lines = ["# Webhook isolation benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines += [
        f"- load average at the end (1, 5, 15 min): {load} (two cores shared by the "
        "service, Neo4j, the receivers and whatever else runs on the machine)",
        f"- {STUCK} receivers that accept connections and never answer, and one that refuses "
        f"them, hold {args.backlog} events each before a healthy receiver joins; then one "
        f"event every {args.interval:g} s for {args.duration:g} s goes to all five",
        "- the service's defaults: 15 s delivery timeout, 1 s poll interval; now also 10 "
        "attempts under way per webhook, a breaker after 5 failures in a row for 30 s",
        "- a delivery not at the healthy receiver "
        f"{args.grace:g} s after the last event counts with the time waited: its lag is "
        "then a lower bound (marked ≥)",
        "",
        "| figure | " + " | ".join(runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("events to the healthy receiver", lambda r: str(len(r["lags"]))),
        ("delivered to it", lambda r: str(len(r["lags"]) - r["missing"])),
        ("median lag", lambda r: _seconds(r, statistics.median(r["lags"]))),
        ("p99 lag", lambda r: _seconds(r, quantile(r["lags"], 0.99))),
        ("max lag", lambda r: _seconds(r, max(r["lags"]))),
        ("pending on the black holes at the end", lambda r: str(r["pending_at_end"])),
        ("attempts recorded on the black holes", lambda r: str(r["black_hole_attempts"])),
        ("connections the black holes took", lambda r: str(sum(r["black_hole_connections"]))),
        ("attempts recorded on the refusing receiver", lambda r: str(r["refused_attempts"])),
    ]
    lines += [
        f"| {name} | " + " | ".join(cell(r) for r in runs.values()) + " |" for name, cell in rows
    ]
    return "\n".join(lines) + "\n"


def _seconds(result: dict[str, Any], value: float) -> str:
    return f"{'≥ ' if result['missing'] else ''}{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backlog", type=int, default=110, help="events per stuck receiver")
    parser.add_argument("--duration", type=float, default=90.0)
    parser.add_argument("--interval", type=float, default=0.25)
    parser.add_argument("--grace", type=float, default=30.0)
    parser.add_argument("--before", help="also measure the service at this commit, first")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-webhooks.md")
    args = parser.parse_args()
    runs = {}
    with bench_neo4j() as target, driver_for(target) as driver:
        if args.before:
            with worktree(args.before) as tree:
                runs[f"at `{args.before}`"] = measure(target, driver, tree, args)
        runs["now"] = measure(target, driver, None, args)
    report = render(runs, args)
    print(report)
    args.out.write_text(report)
    lags = runs["now"]["lags"]
    write_summary(
        "webhooks",
        args.out.name,
        [
            Figure("healthy receiver's delivery lag, median", statistics.median(lags), "s"),
            Figure(
                "healthy receiver's delivery lag, p99",
                quantile(lags, 0.99),
                "s",
                f"<= {TARGET_P99_S:g}",
            ),
        ],
    )


if __name__ == "__main__":
    main()

"""Fault harness: what the service does to acknowledged writes and pending webhooks
when Neo4j is killed, when the service is killed, and when the network to Bolt drops
and slows. Loopback only, bounded by --rounds; writes bench/RESULTS-faults.md and
exits 1 when any request was lost, half-written or answered wrongly.

    python -m bench.faults [--rounds 20] [--scenarios neo4j-kill,webhooks,proxy]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

from bench.common import ROOT, clear_graph, driver_for
from bench.faults import flaky_proxy, neo4j_kill, report, webhooks
from bench.faults.flaky_proxy import FlakyProxy
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess

SCENARIOS = ("neo4j-kill", "webhooks", "proxy")
SERVICE_ENV = {
    "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
    "GOVERNANCE_RATE_LIMIT_BURST": "100000",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.faults",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rounds", type=int, default=20, help="rounds per scenario")
    parser.add_argument(
        "--scenarios", default=",".join(SCENARIOS), help=f"comma-separated: {', '.join(SCENARIOS)}"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--proxy-delay", type=float, default=0.05, help="longest hold, seconds")
    parser.add_argument("--proxy-delay-share", type=float, default=0.2, help="chunks held back")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-faults.md")
    args = parser.parse_args(argv)
    if os.environ.get("NEO4J_URI"):
        parser.error("NEO4J_URI is set: this harness kills Neo4j, so it runs only on its own")
    chosen = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = set(chosen) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")

    results = report.Results(rounds=args.rounds, seed=args.seed)
    with neo4j_kill.killable_neo4j() as (server, target):
        with driver_for(target) as driver:
            clear_graph(driver)
        if "neo4j-kill" in chosen:
            print("kill -9 Neo4j during writes", flush=True)
            with ServiceProcess(target, SERVICE_ENV, LOGS / "faults-neo4j-kill.log").start(
                timeout=120
            ) as svc:
                token = svc.admin_token("faults")
                results.neo4j_kill = neo4j_kill.run(
                    server, target, svc.url, token, args.rounds, args.seed
                )
        if "webhooks" in chosen:
            print("kill -9 the service with webhook deliveries pending", flush=True)
            first = webhooks.service(target, 0)
            token = first.admin_token("faults-webhooks")
            results.webhooks = webhooks.run(target, token, args.rounds, first=first)
        if "proxy" in chosen:
            print("a proxy that drops and slows Bolt traffic", flush=True)
            results.proxy = _proxy(target, args)
    results.write(args.out)
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 1 if results.failed() else 0


def _proxy(target: Neo4jTarget, args: argparse.Namespace) -> flaky_proxy.Outcome:
    bolt = urlparse(target.uri)
    proxy = FlakyProxy(
        bolt.hostname or "127.0.0.1",
        bolt.port or 7687,
        args.proxy_delay,
        args.proxy_delay_share,
        args.seed,
    )
    proxy.start()
    proxied = Neo4jTarget(
        f"bolt://127.0.0.1:{proxy.port}", target.username, target.password, target.database, "proxy"
    )
    env = {**SERVICE_ENV, "NEO4J_CONNECT_TIMEOUT": "1"}
    try:
        with (
            ServiceProcess(proxied, env, LOGS / "faults-proxy.log").start(timeout=120) as svc,
            driver_for(target) as driver,
        ):
            token = svc.admin_token("faults-proxy")
            return flaky_proxy.run(proxy, svc.url, token, driver, args.rounds, args.seed)
    finally:
        proxy.cut()


if __name__ == "__main__":
    sys.exit(main())

"""Soak: a mixed read/write load at a fixed rate below saturation for a long while,
every response recorded, the service's and Neo4j's memory sampled. Loopback only,
bounded by --duration; writes bench/RESULTS-soak.md and bench/RESULTS-soak.png and
exits 1 on any 5xx or unanswered request, or memory that grows.

    python -m bench.soak [--duration 600] [--rate R | --fraction 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import os
import sys
import time
from pathlib import Path

import httpx

from bench.common import (
    BENCH_INSTANCE,
    BENCH_PORT,
    ROOT,
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
)
from bench.soak import load, report
from bench.soak.memory import Sampler
from service.localdb import LocalNeo4j, default_cache_dir
from tests.support.process import LOGS, ServiceProcess

SERVICE_ENV = {
    "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
    "GOVERNANCE_RATE_LIMIT_BURST": "100000",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--duration", type=float, default=600, help="seconds of load")
    parser.add_argument("--rate", type=float, help="requests per second (default: measured)")
    parser.add_argument(
        "--fraction", type=float, default=0.5, help="of the measured saturation, without --rate"
    )
    parser.add_argument("--saturation-seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=16, help="senders measuring saturation")
    parser.add_argument("--sample-every", type=float, default=3, help="seconds between RSS samples")
    parser.add_argument(
        "--max-slope", type=float, default=1.0, help="MiB/min after warm-up counted as flat"
    )
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-soak.md")
    args = parser.parse_args(argv)

    with bench_neo4j() as target:
        with driver_for(target) as driver:
            clear_graph(driver)
        with ServiceProcess(target, SERVICE_ENV, LOGS / "soak-service.log").start(
            timeout=120
        ) as process:
            assert process.process is not None
            service = Service(process.url, process.admin_token("soak"), process.process)
            result = asyncio.run(_soak(service, _neo4j_pid(), args))
    result.write(args.out, args.out.with_suffix(".png"))
    _responses_csv(result, LOGS / "soak-responses.csv")
    print(f"wrote {args.out} and {args.out.with_suffix('.png')}")
    return 1 if result.failed() else 0


def _neo4j_pid() -> int | None:
    if os.environ.get("NEO4J_URI"):
        return None  # not ours to watch
    server = LocalNeo4j(
        default_cache_dir(),
        name=os.environ.get("GOVERNANCE_BENCH_NEO4J_NAME", BENCH_INSTANCE),
        bolt_port=int(os.environ.get("GOVERNANCE_BENCH_NEO4J_PORT", BENCH_PORT)),
    )
    return server.status().pid


async def _soak(service: Service, neo4j_pid: int | None, args: argparse.Namespace) -> report.Soak:
    # Idle connections are let go before uvicorn's 5 s keep-alive timeout closes them: a
    # request sent just as the server closes its connection would fail for no fault of
    # the service.
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64, keepalive_expiry=2)
    async with httpx.AsyncClient(
        base_url=service.url + "/api/v1",
        headers={"Authorization": f"Bearer {service.token}"},
        timeout=60,
        limits=limits,
    ) as client:
        print("seeding", flush=True)
        await load.seed(client)
        mix = load.Mix(args.seed, f"s{time.time_ns():x}")
        saturation = None
        saturation_samples: list[load.Sample] = []
        rate = args.rate
        if rate is None:
            print(f"measuring saturation ({args.saturation_seconds:g} s)", flush=True)
            saturation, measured = await load.closed_loop(
                client, mix, args.clients, args.saturation_seconds
            )
            saturation_samples = measured.samples
            rate = saturation * args.fraction
        print(f"soak: {rate:.1f} requests/s for {args.duration:g} s", flush=True)
        pids = {"service": service.process.pid, "neo4j": neo4j_pid}
        with Sampler(pids, args.sample_every) as sampler:
            recorder, skipped = await load.open_loop(client, mix, rate, args.duration)
    return report.Soak(
        duration_s=args.duration,
        rate=rate,
        saturation=saturation,
        fraction=args.fraction if args.rate is None else None,
        samples=recorder.samples,
        skipped=skipped,
        memory=sampler.samples,
        max_slope=args.max_slope,
        clients=args.clients,
        saturation_samples=saturation_samples,
    )


def _responses_csv(result: report.Soak, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["op", "at_s", "seconds", "status"])
        for s in result.samples:
            writer.writerow([s.op, f"{s.at:.3f}", f"{s.seconds:.4f}", s.status])


if __name__ == "__main__":
    sys.exit(main())

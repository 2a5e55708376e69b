"""Throughput with several service processes: `governance serve --workers N` on one
port, at N = 1 and 2, under the same mixed read load from a fixed number of clients.

    python -m bench.processes [--workers 1,2] [--clients 16] [--duration 20] [--assets 2000]

The load: half `GET /assets/{id}`, a quarter `GET /assets?limit=50`, a quarter
`GET /lineage/{id}/downstream?depth=3`, from `--clients` concurrent keep-alive
connections (the kernel gives each to one worker). The load generator is a small
asyncio HTTP/1.1 client (no HTTP library on the hot path), and it shares the machine
with Neo4j and the service: the report gives its CPU share and the machine's, so a
result limited by the cores rather than by the service can be read as such.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.common import (
    ROOT,
    Figure,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    write_summary,
)
from bench.lineage import warehouse
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, SECRET_KEY

MIX = (("asset get", 2), ("asset list", 1), ("lineage depth 3", 1))
LAYERS = 10
SERVICE = [sys.executable, "-m", "service"]


@dataclass
class Workers:
    url: str
    token: str
    process: subprocess.Popen[bytes]


@contextmanager
def serving(target: Neo4jTarget, workers: int) -> Iterator[Workers]:
    """`governance serve --workers N --fd` on a loopback port bound here, until ready."""
    env = {
        **os.environ,
        "GOVERNANCE_SECRET_KEY": SECRET_KEY,
        "NEO4J_URI": target.uri,
        "NEO4J_USERNAME": target.username,
        "NEO4J_PASSWORD": target.password,
        "NEO4J_DATABASE": target.database,
        "GOVERNANCE_RATE_LIMIT_PER_SECOND": "1000000",
        "GOVERNANCE_RATE_LIMIT_BURST": "1000000",
        "GOVERNANCE_LOG_LEVEL": "warning",  # no access log line per request
    }
    listener = socket.create_server(("127.0.0.1", 0))
    port, fd = listener.getsockname()[1], listener.fileno()
    command = [*SERVICE, "serve", "--workers", str(workers)]
    LOGS.mkdir(parents=True, exist_ok=True)
    with (LOGS / f"bench-processes-{workers}.log").open("wb") as log:
        process = subprocess.Popen(
            [*command, "--fd", str(fd)],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(fd,),
        )
    listener.close()
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_ready(url, process)
        token = subprocess.run(
            [*SERVICE, "token", "create", "--name", "bench", "--scope", "write"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        yield Workers(url, token, process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_ready(url: str, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the service exited ({process.returncode}) while starting")
        try:
            if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)  # polling a starting process: nothing to wait on but time
    raise RuntimeError(f"the service on {url} was not ready within {timeout:g}s")


def seed(service: Workers, assets: int) -> None:
    """`assets` described assets in a layered DAG of lineage, written through the API."""
    edges = warehouse(assets, LAYERS)
    headers = {"Authorization": f"Bearer {service.token}"}

    async def put_all() -> None:
        async with httpx.AsyncClient(
            base_url=service.url + "/api/v1", headers=headers, timeout=120
        ) as client:
            pending = asyncio.Queue[str]()
            for asset_id in asset_ids(edges):
                pending.put_nowait(asset_id)

            async def worker() -> None:
                while not pending.empty():
                    asset_id = pending.get_nowait()
                    body = {"id": asset_id, "name": asset_id, "type": "table"}
                    for _ in range(10):  # a busy machine's 503 (with Retry-After) is retried
                        response = await client.put(f"/assets/{asset_id}", json=body)
                        if response.status_code != 503:
                            break
                        await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                    response.raise_for_status()

            await asyncio.gather(*(worker() for _ in range(4)))
            bulk = [{"source": s, "target": t} for s, t in edges]
            (await client.post("/lineage/bulk", json=bulk)).raise_for_status()

    asyncio.run(put_all())


def asset_ids(edges: list[tuple[str, str]]) -> list[str]:
    return sorted({s for s, _ in edges} | {t for _, t in edges})


def lineage_roots(ids: list[str]) -> list[str]:
    """The first half of the layers, so a depth-3 walk downstream reaches something."""
    return [i for i in ids if int(i[1:3]) < LAYERS // 2]


class Connection:
    """One kept-alive HTTP/1.1 connection: GET, read headers and a Content-Length body."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    async def open(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def get(self, target: str, auth: bytes) -> int:
        self.writer.write(b"GET " + target.encode() + b" HTTP/1.1\r\nHost: bench\r\n" + auth)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length, chunked = 0, False
        for line in head.lower().split(b"\r\n"):
            if line.startswith(b"content-length:"):
                length = int(line[15:])
            elif line.startswith(b"transfer-encoding:") and b"chunked" in line:
                chunked = True
        if not chunked:
            await self.reader.readexactly(length)
            return status
        while size := int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await self.reader.readexactly(size + 2)
        await self.reader.readuntil(b"\r\n")  # the end: no trailers are sent
        return status

    def close(self) -> None:
        self.writer.close()


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {n: [] for n, _ in MIX})
    errors: int = 0


async def client_loop(
    connection: Connection,
    auth: bytes,
    ids: list[str],
    roots: list[str],
    until: float,
    tally: Tally | None,
    rng: random.Random,
) -> None:
    names = [name for name, weight in MIX for _ in range(weight)]
    while time.perf_counter() < until:
        name = rng.choice(names)
        if name == "asset get":
            target = f"/api/v1/assets/{rng.choice(ids)}"
        elif name == "asset list":
            target = "/api/v1/assets?limit=50"
        else:
            target = f"/api/v1/lineage/{rng.choice(roots)}/downstream?depth=3"
        started = time.perf_counter()
        try:
            status = await connection.get(target, auth)
        except (asyncio.IncompleteReadError, ConnectionError):
            status = 0  # the server closed the connection: counted, and a new one opened
            connection.close()
            await connection.open()
        if tally is not None:
            if status == 200:
                tally.latencies[name].append(time.perf_counter() - started)
            else:
                tally.errors += 1


async def load(
    url: str, token: str, ids: list[str], roots: list[str], clients: int, seconds: float, seed: int
) -> Tally:
    host, port = url.removeprefix("http://").split(":")
    auth = f"Authorization: Bearer {token}\r\n\r\n".encode()
    connections = [await Connection(host, int(port)).open() for _ in range(clients)]
    tally = Tally()
    try:
        warm = time.perf_counter() + min(5.0, seconds / 4)
        await asyncio.gather(
            *(
                client_loop(c, auth, ids, roots, warm, None, random.Random(seed + i))
                for i, c in enumerate(connections)
            )
        )
        until = time.perf_counter() + seconds
        await asyncio.gather(
            *(
                client_loop(c, auth, ids, roots, until, tally, random.Random(seed + 100 + i))
                for i, c in enumerate(connections)
            )
        )
    finally:
        for connection in connections:
            connection.close()
    return tally


def cpu_s(supervisor: int, also: int | None) -> tuple[float, float]:
    """CPU seconds used so far by the service's processes (the supervisor and its
    children) and by the process `also` (a local Neo4j), from /proc."""
    served = other = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        pid = int(stat.parent.name)
        if pid == supervisor or int(fields[1]) == supervisor:
            served += used
        elif pid == also:
            other += used
    return served, other


def listening_pid(port: int) -> int | None:
    """The local process listening on `port` (a Neo4j on this machine), if any."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            cols = row.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{cols[9]}]")
    for fds in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd) in inodes for fd in fds.iterdir()):
                return int(fds.parent.name)
        except OSError:
            continue  # not ours to read, or it ended meanwhile
    return None


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores since boot, from /proc/stat."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


@dataclass
class Run:
    workers: int
    seconds: float
    tally: Tally
    machine_busy: float
    generator_cpu: float
    service_cpu: float
    neo4j_cpu: float | None

    @property
    def everything(self) -> list[float]:
        return [x for samples in self.tally.latencies.values() for x in samples]

    @property
    def rate(self) -> float:
        return len(self.everything) / self.seconds


def measure(
    target: Neo4jTarget, workers: int, clients: int, seconds: float, assets: int, fresh: bool
) -> Run:
    ids = asset_ids(warehouse(assets, LAYERS))
    roots = lineage_roots(ids)
    with serving(target, workers) as service:
        if fresh:
            seed(service, assets)
        busy0, total0 = machine_busy()
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        neo4j = listening_pid(int(target.uri.rsplit(":", 1)[1])) if local(target) else None
        served0, neo4j0 = cpu_s(service.process.pid, neo4j)
        tally = asyncio.run(load(service.url, service.token, ids, roots, clients, seconds, 7))
        served1, neo4j1 = cpu_s(service.process.pid, neo4j)
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        busy1, total1 = machine_busy()
    generator = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    cores = (os.cpu_count() or 1) * (seconds + min(5.0, seconds / 4))  # core-seconds
    return Run(
        workers,
        seconds,
        tally,
        (busy1 - busy0) / (total1 - total0),
        generator / cores,
        (served1 - served0) / cores,
        None if neo4j is None else (neo4j1 - neo4j0) / cores,
    )


def local(target: Neo4jTarget) -> bool:
    return "://127.0.0.1:" in target.uri or "://localhost:" in target.uri


def ms(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    if q == 0.5:
        return statistics.median(samples) * 1000
    return statistics.quantiles(samples, n=100, method="inclusive")[int(q * 100) - 1] * 1000


def render(args: argparse.Namespace, runs: list[Run]) -> str:
    env = environment()
    lines = [
        "# Several processes: throughput of a mixed read load",
        "",
        "Written by `python -m bench.processes` (`make bench-processes`). "
        f"{args.clients} concurrent clients, each on its own kept-alive connection, for "
        f"{args.duration:g} s after a warm-up; {args.assets} assets in {LAYERS} layers. The "
        "load: half `GET /assets/{id}`, a quarter `GET /assets?limit=50`, a quarter "
        "`GET /lineage/{id}/downstream?depth=3`.",
        "",
        *(f"- {k}: {v}" for k, v in env.items()),
        "",
        "| processes | requests/s | p50 ms | p99 ms | errors | machine CPU busy "
        "| service CPU | Neo4j CPU | load generator CPU |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        lines.append(
            f"| {run.workers} | {run.rate:.0f} | {ms(run.everything, 0.5):.1f} | "
            f"{ms(run.everything, 0.99):.1f} | {run.tally.errors} | "
            f"{run.machine_busy:.0%} | {run.service_cpu:.0%} | "
            f"{'-' if run.neo4j_cpu is None else f'{run.neo4j_cpu:.0%}'} | "
            f"{run.generator_cpu:.1%} |"
        )
    lines += [
        "",
        "By request (p50 / p99 ms):",
        "",
        "| processes | " + " | ".join(n for n, _ in MIX) + " |",
    ]
    lines.append("|---|" + "---|" * len(MIX))
    for run in runs:
        cells = [
            f"{ms(run.tally.latencies[n], 0.5):.1f} / {ms(run.tally.latencies[n], 0.99):.1f}"
            for n, _ in MIX
        ]
        lines.append(f"| {run.workers} | " + " | ".join(cells) + " |")
    noisy = [r.workers for r in runs if busy_elsewhere(r) > 0.25]
    if noisy:
        lines += [
            "",
            "**Not a quiet machine:** in the runs with "
            + ", ".join(str(n) for n in noisy)
            + " process(es), more than a quarter of the machine's CPU went to programs other "
            "than the service, Neo4j and the load generator, so these figures say more about "
            "them than about the service. Run it again on an idle machine.",
        ]
    if len(runs) > 1:
        lines += [
            "",
            f"{runs[-1].workers} processes against 1: "
            f"{runs[-1].rate / runs[0].rate:.2f}x the requests per second.",
        ]
    lines += [
        "",
        "CPU shares are of all the machine's cores over the warm-up and the measured "
        "window; machine CPU busy counts everything running, other programs included "
        "(what the service, Neo4j and the load generator leave of it is someone else's). "
        "Neo4j, the service's processes and the load generator share those cores: when "
        "the machine is near 100% busy, a second process can only take cycles from the "
        "others, and the figures show the machine's limit rather than the service's. "
        "A second process pays when one process's Python is the bottleneck and a core "
        "is free for it.",
        "",
    ]
    return "\n".join(lines)


def busy_elsewhere(run: Run) -> float:
    """The share of the machine's CPU that went to other programs during a run."""
    ours = run.service_cpu + (run.neo4j_cpu or 0.0) + run.generator_cpu
    return run.machine_busy - ours


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", default="1,2", help="process counts, comma-separated")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds per run")
    parser.add_argument("--assets", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-processes.md")
    args = parser.parse_args()
    runs: list[Run] = []
    with bench_neo4j() as target:
        with driver_for(target) as driver:
            clear_graph(driver)
        for workers in (int(n) for n in args.workers.split(",")):
            fresh = not runs  # the first run seeds the graph, the others read the same one
            run = measure(target, workers, args.clients, args.duration, args.assets, fresh)
            print(
                f"{workers} process(es): {run.rate:.0f} req/s, p50 "
                f"{ms(run.everything, 0.5):.1f} ms, p99 {ms(run.everything, 0.99):.1f} ms",
                flush=True,
            )
            runs.append(run)
    report = render(args, runs)
    print(report)
    args.out.write_text(report)
    figures = [Figure(f"{r.workers} process(es): mixed reads", r.rate, "req/s") for r in runs] + [
        Figure(f"{r.workers} process(es): p99", ms(r.everything, 0.99), "ms") for r in runs
    ]
    if len(runs) > 1:
        figures.insert(
            0,
            Figure(
                f"throughput, {runs[-1].workers} / {runs[0].workers} processes",
                runs[-1].rate / runs[0].rate,
                "x",
            ),
        )
    write_summary("processes", args.out.name, figures)


if __name__ == "__main__":
    main()

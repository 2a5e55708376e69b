"""Placing assets again after a domain's rules change: `PUT /api/v1/domains/{id}` on a
graph of `--assets` assets (100,000 by default) in `--namespaces` namespaces.

Each step times the whole request through the service, client side: the domain
written, then every asset read in batches and those whose domain changes written
(`service.store.domain_placement`). Three steps, each run `--rounds` times (medians):

- enter: the domain is created with a `namespace` rule taking half the assets;
- move: its rule changes to the other half (every asset changes domain);
- same: the same rules again (every asset read, none written).

Figures: seconds per step and assets re-evaluated per second (all assets / seconds).

    .venv/bin/python -m bench.domain_placement           # NEO4J_URI, or a local bench instance
    .venv/bin/python -m bench.domain_placement --assets 20000
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
import neo4j

from bench.common import (
    Figure,
    bench_neo4j,
    clear_graph,
    driver_for,
    running_service,
    write_summary,
)
from service import clock

BATCH = 10_000
DOMAIN = "placed"
TEAM = "bench-owners"
RESULTS = Path(__file__).parent / "RESULTS-domain-placement.md"
CREATE_ASSETS = """
UNWIND $rows AS id
CREATE (:Asset {id: id, name: id, type: 'table', created_at: $now, updated_at: $now})
"""
STEPS = ("enter", "move", "same")


def namespace(index: int) -> str:
    return f"ns{index:02d}."


def build(driver: neo4j.Driver, assets: int, namespaces: int) -> None:
    """`assets` assets spread evenly over `namespaces` id prefixes, in no domain."""
    now = clock.now_iso()
    ids = [f"{namespace(i % namespaces)}asset{i:07d}" for i in range(assets)]
    with driver.session() as session:
        session.run("MATCH (n) WHERE n:Team OR n:Domain DETACH DELETE n").consume()
        for start in range(0, len(ids), BATCH):
            session.run(CREATE_ASSETS, rows=ids[start : start + BATCH], now=now).consume()


def rules(half: int, namespaces: int) -> list[dict[str, str]]:
    """`namespace` rules taking the first (0) or the second (1) half of the namespaces."""
    chosen = range(half * namespaces // 2, (half + 1) * namespaces // 2)
    return [{"kind": "namespace", "value": namespace(i)} for i in chosen]


def timed_put(client: httpx.Client, body: dict[str, Any]) -> float:
    began = time.perf_counter()
    answer = client.put(f"/api/v1/domains/{DOMAIN}", json=body)
    spent = time.perf_counter() - began
    assert answer.status_code in (200, 201), answer.text
    return spent


def settle(client: httpx.Client, deadline_s: float = 900) -> None:
    """Untimed: place every asset once under no rule, retrying while the database is
    busy (a fresh service backfills the assets' histories at start), so the timed steps
    meet a warm database the service alone uses."""
    made = client.put(f"/api/v1/teams/{TEAM}", json={})
    assert made.status_code in (200, 201), made.text
    deadline = time.monotonic() + deadline_s
    while True:
        answer = client.put(f"/api/v1/domains/{DOMAIN}", json={"owner_team": TEAM})
        if answer.status_code in (200, 201):
            return
        assert answer.status_code == 503 and time.monotonic() < deadline, answer.text
        time.sleep(float(answer.headers.get("retry-after", "1")))


def run(client: httpx.Client, namespaces: int, rounds: int) -> dict[str, list[float]]:
    settle(client)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    for _ in range(rounds):
        assert client.delete(f"/api/v1/domains/{DOMAIN}").status_code in (204, 404)
        bodies = {
            "enter": {"owner_team": TEAM, "rules": rules(0, namespaces)},
            "move": {"owner_team": TEAM, "rules": rules(1, namespaces)},
        }
        bodies["same"] = bodies["move"]
        for step in STEPS:
            times[step].append(timed_put(client, bodies[step]))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assets", type=int, default=100_000)
    parser.add_argument("--namespaces", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with bench_neo4j() as target, driver_for(target) as driver:
        clear_graph(driver)
        started = time.perf_counter()
        build(driver, args.assets, args.namespaces)
        print(f"built {args.assets:,} assets in {time.perf_counter() - started:.0f} s")
        with (
            running_service(target) as service,
            httpx.Client(
                base_url=service.url,
                headers={"Authorization": f"Bearer {service.token}"},
                timeout=600,
            ) as client,
        ):
            load = os.getloadavg()[0]
            times = run(client, args.namespaces, args.rounds)
            load = max(load, os.getloadavg()[0])
    report(times, args.assets, args.rounds, load)


def report(times: dict[str, list[float]], assets: int, rounds: int, load: float) -> None:
    medians = {step: statistics.median(times[step]) for step in STEPS}
    moved = {"enter": assets // 2, "move": assets, "same": 0}
    rows = [
        f"| {step} | {moved[step]:,} | {medians[step]:.2f} | {assets / medians[step]:,.0f} |"
        for step in STEPS
    ]
    lines = [
        "# Placing assets again after a domain change",
        "",
        f"`bench/domain_placement.py`: {assets:,} assets in 20 namespaces; "
        "`PUT /api/v1/domains/{id}` timed through the service, client side (the domain "
        "written, then every asset read in batches of 5,000 and those whose domain changes "
        f"written); medians of {rounds} rounds. Load average (1 min) up to {load:.1f} on "
        "2 cores while it ran: a shared, busy machine, so the figures are an upper bound.",
        "",
        "| step | assets whose domain changes | seconds | assets re-evaluated / s |",
        "|---|---|---|---|",
        *rows,
        "",
        "`enter`: the domain created with rules taking half the assets; `move`: its rules "
        "changed to the other half; `same`: the same rules again (every asset read, none "
        "written).",
        "",
    ]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))
    write_summary(
        "domain_placement",
        RESULTS.name,
        [
            Figure("re-placement after a rule change (move)", round(medians["move"], 2), "s"),
            Figure("assets re-evaluated per second (move)", round(assets / medians["move"]), "/s"),
        ],
    )


if __name__ == "__main__":
    main()

"""Lineage that redacts: a permission-aware traversal against the unfiltered one at
depth 10 on a large graph spread over 20 domains (half of them private).

The graph is a root and 10 layers of `--width` assets (100,000 by default), each asset
linking to `--fanout` of the next layer (3: a depth-10 walk from the root reaches about
20,000 nodes; 2: 2,047), each asset in one of 20 domains, the even ones private. Each sample times
`GET /lineage/root/downstream?depth=10` through the service (client side, keep-alive)
for an admin, from whom nothing is hidden (the unfiltered walk), and for an editor who
holds a role in one private domain only, for whom about 45% of the nodes come back as
stand-ins (the permission-aware walk: the same statement, the root's check, the owning
teams' read and the redaction in Python), alternating after warm-up; medians are
reported. Target: permission-aware <= 1.2x unfiltered.

    .venv/bin/python -m bench.redaction            # NEO4J_URI, or a local bench instance
    .venv/bin/python -m bench.redaction --width 2000   # a smaller graph (20k assets)
"""

from __future__ import annotations

import argparse
import http.client
import time
from pathlib import Path
from typing import Any

import neo4j
import orjson

from bench.common import (
    Figure,
    LeanClient,
    bench_neo4j,
    clear_graph,
    driver_for,
    median_ms,
    running_service,
    write_summary,
)
from service import clock
from service.domain.access import tokens as token_format

ROOT_ID = "redaction.root"
LAYERS = 10
DOMAINS = 20
DEPTH = 10
LIMIT = 500
BATCH = 10_000
MEMBER_DOMAIN = "d00"  # the one private domain the editor holds a role in
RESULTS = Path(__file__).parent / "RESULTS-redaction.md"

CREATE_ASSETS = """
UNWIND $rows AS row
CREATE (:Asset {id: row.id, name: row.id, type: 'table', domain: row.domain,
                domain_private: row.private, created_at: $now, updated_at: $now})
"""
CREATE_EDGES = """
UNWIND $rows AS row
MATCH (s:Asset {id: row[0]}), (t:Asset {id: row[1]})
CREATE (s)-[:LINEAGE {origins: ['api'], created_at: $now, updated_at: $now}]->(t)
"""
PLACE_TEAMS = """
UNWIND $domains AS d
MERGE (team:Team {id: 'team-' + d.id})
MERGE (domain:Domain {id: d.id}) SET domain.private = d.private, domain.owner_team = team.id
MERGE (team)-[:GRANTED {role: 'admin'}]->(domain)
"""
OUTSIDER = """
CREATE (u:User {id: 'usr_bench_outsider', username: 'outsider', role: 'editor', disabled: false})
CREATE (t:Team {id: 'bench-readers'})
CREATE (u)-[:MEMBER_OF]->(t)
WITH t MATCH (d:Domain {id: $domain}) CREATE (t)-[:GRANTED {role: 'viewer'}]->(d)
"""
MAKE_API_KEY = """
CREATE (:ApiToken {id: 'tok_bench_outsider', name: 'outsider', scopes: ['read'], hash: $hash,
                   prefix: $prefix, created_at: $now, created_by: 'bench',
                   user_id: 'usr_bench_outsider'})
"""


def asset_id(layer: int, index: int) -> str:
    return f"redaction.l{layer:02d}.{index:06d}"


def domain_of(layer: int, index: int) -> tuple[str, bool]:
    number = (index * 7 + layer) % DOMAINS
    return f"d{number:02d}", number % 2 == 0


def build(driver: neo4j.Driver, width: int, fanout: int) -> int:
    """The layered graph, its domains and teams; the number of assets."""
    now = clock.now_iso()
    assets: list[dict[str, Any]] = [{"id": ROOT_ID, "domain": None, "private": None}]
    for layer in range(1, LAYERS + 1):
        for index in range(width):
            domain, private = domain_of(layer, index)
            assets.append(
                {"id": asset_id(layer, index), "domain": domain, "private": private or None}
            )
    edges = [(ROOT_ID, asset_id(1, step)) for step in range(fanout)]
    for layer in range(1, LAYERS):
        for index in range(width):
            for step in range(fanout):
                target = (fanout * index + step) % width
                edges.append((asset_id(layer, index), asset_id(layer + 1, target)))
    with driver.session() as session:
        session.run("CREATE INDEX bench_team_id IF NOT EXISTS FOR (t:Team) ON (t.id)").consume()
        session.run("CREATE INDEX bench_domain_id IF NOT EXISTS FOR (d:Domain) ON (d.id)").consume()
        for start in range(0, len(assets), BATCH):
            session.run(CREATE_ASSETS, rows=assets[start : start + BATCH], now=now).consume()
        for start in range(0, len(edges), BATCH):
            rows = [list(e) for e in edges[start : start + BATCH]]
            session.run(CREATE_EDGES, rows=rows, now=now).consume()
        domains = [{"id": f"d{n:02d}", "private": n % 2 == 0} for n in range(DOMAINS)]
        session.run(PLACE_TEAMS, domains=domains).consume()
    return len(assets)


def clear_access(driver: neo4j.Driver) -> None:
    with driver.session() as session:
        session.run(
            "MATCH (n) WHERE n:Team OR n:Domain OR n.id IN ['usr_bench_outsider', "
            "'tok_bench_outsider'] DETACH DELETE n"
        ).consume()


def outsider_token(driver: neo4j.Driver) -> str:
    secret = token_format.generate()
    with driver.session() as session:
        session.run(OUTSIDER, domain=MEMBER_DOMAIN).consume()
        session.run(
            MAKE_API_KEY,
            hash=token_format.digest(secret),
            prefix=token_format.display_prefix(secret),
            now=clock.now_iso(),
        ).consume()
    return secret


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--width", type=int, default=10_000, help="assets per layer")
    parser.add_argument("--fanout", type=int, default=3, help="edges from each asset")
    args = parser.parse_args()
    path = f"/lineage/{ROOT_ID}/downstream?depth={DEPTH}&limit={LIMIT}"
    with bench_neo4j() as target, driver_for(target) as driver:
        clear_graph(driver)
        clear_access(driver)
        started = time.perf_counter()
        assets = build(driver, args.width, args.fanout)
        print(f"built {assets:,} assets in {time.perf_counter() - started:.0f} s")
        secret = outsider_token(driver)
        with (
            running_service(target) as service,
            service.lean_client() as admin,
            LeanClient(service.url, secret) as outsider,
        ):
            status, body = outsider.get(path)
            assert status == 200, body
            seen = orjson.loads(body)
            assert seen["redacted"] > 0, "nothing was redacted"
            reached = len(seen["nodes"]) + seen["remaining"]["downstream"]
            times: dict[str, list[float]] = {"unfiltered": [], "permission-aware": []}
            for sample in range(args.samples + 3):  # 3 warm-up rounds
                for name, client in (("unfiltered", admin), ("permission-aware", outsider)):
                    spent = timed_get(client, path)
                    if sample >= 3:
                        times[name].append(spent)
    report(times, assets, reached, seen["redacted"], args.samples)


def timed_get(client: LeanClient, path: str) -> float:
    """Seconds one GET took; a keep-alive connection the server closed while the other
    caller's walk ran is opened again, untimed."""
    try:
        client.get(path)
    except http.client.RemoteDisconnected:
        client.get(path)
    began = time.perf_counter()
    status, body = client.get(path)
    spent = time.perf_counter() - began
    assert status == 200, body
    return spent


def report(
    times: dict[str, list[float]], assets: int, reached: int, redacted: int, samples: int
) -> None:
    unfiltered = median_ms(times["unfiltered"])
    aware = median_ms(times["permission-aware"])
    ratio = aware / unfiltered
    lines = [
        "# Lineage that redacts",
        "",
        f"`bench/redaction.py`: {assets:,} assets in {DOMAINS} domains (10 private), depth "
        f"{DEPTH} from the root reaching {reached:,} nodes, pages of {LIMIT} ({redacted} "
        f"stand-ins on the first for the editor); medians of {samples} samples through the "
        "service, alternating.",
        "",
        "| caller | median (ms) |",
        "|---|---|",
        f"| admin (unfiltered) | {unfiltered:.1f} |",
        f"| editor with one private domain (permission-aware) | {aware:.1f} |",
        "",
        f"Permission-aware / unfiltered: {ratio:.2f}x (target <= 1.2x).",
        "",
    ]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))
    write_summary(
        "redaction",
        RESULTS.name,
        [Figure("permission-aware / unfiltered (median)", round(ratio, 3), "x", "<= 1.2")],
    )


if __name__ == "__main__":
    main()

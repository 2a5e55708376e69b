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

With `--baseline FILE` (an earlier `cypher/lineage/traverse.cypher`, say from `git show
HEAD:...`), the raw statement of that file and the current one are also timed through
the driver for both callers (first page, same parameters as the service passes),
earlier and current alternating request by request: what a change to the statement
costs, apart from the service. `--reuse` keeps a graph an earlier run built.

    .venv/bin/python -m bench.redaction            # NEO4J_URI, or a local bench instance
    .venv/bin/python -m bench.redaction --width 2000   # a smaller graph (20k assets)
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
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
from service import clock, cypher
from service.domain.access import tokens as token_format
from service.domain.lineage_pages import page_params

ROOT_ID = "redaction.root"
LAYERS = 10
DOMAINS = 20
DEPTH = 10
LIMIT = 500
BATCH = 10_000
MEMBER_DOMAIN = "d00"  # the one private domain the editor holds a role in
RESULTS = Path(__file__).parent / "RESULTS-redaction.md"
TITLE = "# Lineage that redacts"  # the file's; each run adds a dated section below it

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
    with driver.session() as session:  # on the service's schema (its id constraints)
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


def built(driver: neo4j.Driver, width: int, fanout: int, reuse: bool) -> int:
    """The number of assets of the graph: the one there with `reuse` (when it has the
    root), else one built afresh."""
    if reuse:
        with driver.session() as session:
            found = session.run(
                "MATCH (:Asset {id: $root}) RETURN COUNT { MATCH (a:Asset) } AS assets",
                root=ROOT_ID,
            ).single()
        if found is not None:
            clear_access(driver)
            return int(found["assets"])
    clear_graph(driver)
    clear_access(driver)
    started = time.perf_counter()
    assets = build(driver, width, fanout)
    print(f"built {assets:,} assets in {time.perf_counter() - started:.0f} s")
    return assets


def statement_samples(driver: neo4j.Driver, baseline: Path, samples: int) -> dict[str, float]:
    """Median ms of the raw first-page statement, earlier (`baseline`) and current, for
    the admin (nothing hidden) and the outsider, interleaved after 3 warm-up rounds."""
    statements = {
        "earlier": cypher.parse("lineage.traverse", baseline.read_text()),
        "current": cypher.load()["lineage.traverse"],
    }
    callers: dict[str, tuple[str, ...] | None] = {"admin": None, "outsider": (MEMBER_DOMAIN,)}
    times: dict[str, list[float]] = {f"{v} {c}": [] for v in statements for c in callers}
    for sample in range(samples + 3):
        for caller, readable in callers.items():
            for version, query in statements.items():
                spent = _raw_walk(driver, query.statement({"depth": DEPTH}), readable)
                if sample >= 3:
                    times[f"{version} {caller}"].append(spent)
    return {name: statistics.median(spent) * 1000 for name, spent in times.items()}


def _raw_walk(driver: neo4j.Driver, statement: Any, readable: tuple[str, ...] | None) -> float:
    began = time.perf_counter()
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        row = session.run(
            statement,
            id=ROOT_ID,
            downstream=True,
            upstream=False,
            token_hash=None,
            access=None,
            now=clock.now_iso(),
            **page_params(LIMIT, readable=readable),
        ).single(strict=True)
    spent = time.perf_counter() - began
    assert row["root"] is not None and row["nodes"], "the walk found nothing"
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--width", type=int, default=10_000, help="assets per layer")
    parser.add_argument("--fanout", type=int, default=3, help="edges from each asset")
    parser.add_argument("--baseline", type=Path, help="an earlier traverse.cypher to compare")
    parser.add_argument("--reuse", action="store_true", help="keep a graph built earlier")
    args = parser.parse_args()
    path = f"/lineage/{ROOT_ID}/downstream?depth={DEPTH}&limit={LIMIT}"
    # the service starts first: its schema (the asset id constraint) serves the build
    with (
        bench_neo4j() as target,
        driver_for(target) as driver,
        running_service(target) as service,
    ):
        assets = built(driver, args.width, args.fanout, args.reuse)
        raw = statement_samples(driver, args.baseline, args.samples) if args.baseline else {}
        secret = outsider_token(driver)
        with service.lean_client() as admin, LeanClient(service.url, secret) as outsider:
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
    report(times, assets, reached, seen["redacted"], args.samples, raw)


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
    times: dict[str, list[float]],
    assets: int,
    reached: int,
    redacted: int,
    samples: int,
    raw: dict[str, float],
) -> None:
    unfiltered = median_ms(times["unfiltered"])
    aware = median_ms(times["permission-aware"])
    ratio = aware / unfiltered
    lines = [
        f"## {clock.now_iso()[:10]}",
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
        f"Permission-aware / unfiltered: {ratio:.2f}x (target <= 1.2x). Load average "
        f"at the end: {os.getloadavg()[0]:.1f} (2 cores).",
        "",
    ]
    if raw:
        lines += [
            "The raw first-page statement through the driver, earlier and current "
            "alternating (median ms):",
            "",
            "| statement | admin | outsider |",
            "|---|---|---|",
            *(
                f"| {v} | {raw[f'{v} admin']:.1f} | {raw[f'{v} outsider']:.1f} |"
                for v in ("earlier", "current")
            ),
            "",
        ]
    section = "\n".join(lines)
    print(section)
    earlier = RESULTS.read_text().removeprefix(TITLE).lstrip("\n") if RESULTS.exists() else ""
    RESULTS.write_text(f"{TITLE}\n\n{section}\n{earlier}")
    write_summary(
        "redaction",
        RESULTS.name,
        [Figure("permission-aware / unfiltered (median)", round(ratio, 3), "x", "<= 1.2")],
    )


if __name__ == "__main__":
    main()

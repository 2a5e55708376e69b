"""A lineage history graph written directly, for the as_of walk at sizes the real
writers take hours to build.

    python -m bench.history_synth build --name N --port P [--assets 100000] [--layers 20]
                                        [--rounds 10] [--plain]
    python -m bench.history_synth check --name N --port P [--assets 300] [--rounds 3]
                                        [--roots 4]
    python -m bench.history_synth time --plain-name N --plain-port P --kept-name N
                                       --kept-port P [--assets 100000] [--roots 6]
                                       [--samples 10] [--runs 2]

`bench.history` builds its `kept` graph through the service's writers: the live graph
(`lineage.merge_placeholders`, `lineage.merge_edges`), `rounds` rounds of every asset's
description (`assets.record_versions`), then `rounds` rounds changing every edge's
transformation (`history.record_edges`). Every edge then holds the same history, one
interval a round, differing only in the instants each transaction took. `build` writes
that end state in UNWIND batches with one instant per round (`Plan`): the assets, their
versions, the LINEAGE edges, the trail nodes and each edge's LINEAGE_WAS with the
properties record_edges leaves (`edge_history`); with `--plain`, the live graph alone
as `bench.history`'s `plain` holds it. `check` builds a small graph both ways on one
instance, the writers' clock held to the plan's instants, and compares every node's and
relationship's properties and the as_of answers of a few roots. `time` times the raw
traversals at depth 10 as `bench.history` calls them: today's on `plain`, today's on
`kept`, as_of on `kept`, interleaved request by request. The instances are made with
heap and page cache 2g and stopped at the end; their directories stay.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol
from unittest import mock

import neo4j

from bench.common import driver_for, median_ms
from bench.history import (
    DEPTH,
    apply_schema,
    clear,
    describe,
    instance,
    load,
    traverse,
    traverse_params,
)
from bench.lineage import warehouse
from service import clock, cypher
from service.domain.history import OPEN, instant_ms

BATCH = 10_000
ORIGIN = "api"  # the origin bench.history's writes record (lineage.merge_edges, `api`)
ACTOR = "bench"
ROUND = timedelta(minutes=1)

WRITE_ASSETS = "UNWIND $rows AS row CREATE (a:Asset) SET a = row"
WRITE_VERSIONS = "UNWIND $rows AS row CREATE (v:AssetVersion) SET v = row"
WRITE_TRAILS = "UNWIND $rows AS row CREATE (t:AssetTrail) SET t = row"
WRITE_EDGES = (
    "UNWIND $pairs AS p MATCH (s:Asset {id: p[0]}) MATCH (t:Asset {id: p[1]})"
    " CREATE (s)-[e:LINEAGE]->(t) SET e = $props"
)
WRITE_HISTORIES = (
    "UNWIND $pairs AS p MATCH (s:AssetTrail {id: p[0]}) MATCH (t:AssetTrail {id: p[1]})"
    " CREATE (s)-[w:LINEAGE_WAS]->(t) SET w = $props"
)


class Way(Protocol):
    def __call__(self, root: str, side: str) -> set[str]: ...


@dataclass(frozen=True)
class Plan:
    """The instants of bench.history's writes, one a transaction there, one a round
    here: the live graph's (`loaded`), each description round's, each edge round's."""

    loaded: str
    described: list[str]
    changed: list[str]

    @classmethod
    def ending(cls, end: datetime, rounds: int) -> Plan:
        """Rounds a minute apart, the last edge round a minute before `end`."""
        steps = [
            clock.format_time(end - ROUND * (2 * rounds + 1 - i)) for i in range(2 * rounds + 1)
        ]
        return cls(steps[0], steps[1 : rounds + 1], steps[rounds + 1 :])

    def sequence(self) -> list[str]:
        return [self.loaded, *self.described, *self.changed]

    @property
    def as_of(self) -> str:
        """Inside the last edge round but one: after it, before the last."""
        before, last = self.changed[-2:]
        middle = (
            datetime.fromisoformat(before)
            + (datetime.fromisoformat(last) - datetime.fromisoformat(before)) / 2
        )
        return clock.format_time(middle)


def transformation(round_: int) -> str:
    return f"select {round_}"


def description(round_: int) -> str:
    return f"round {round_}"


def asset(id_: str, plan: Plan) -> dict[str, Any]:
    """A live asset after the rounds: a placeholder lineage named, then described
    (bench.history.SET_DESCRIPTIONS; the ETag `version` stays 1)."""
    return {
        "id": id_,
        "name": id_,
        "type": "unknown",
        "placeholder": False,
        "version": 1,
        "owners": [],
        "tags": [],
        "created_at": plan.loaded,
        "updated_at": plan.described[-1] if plan.described else plan.loaded,
        "description": description(len(plan.described)),
    }


def versions(id_: str, plan: Plan) -> list[dict[str, Any]]:
    """The asset's versions, one a description round (assets.record_versions' copy of
    the live node without its id, ETag version and timestamps)."""
    return [
        {
            "asset_id": id_,
            "name": id_,
            "type": "unknown",
            "placeholder": False,
            "owners": [],
            "tags": [],
            "description": description(round_),
            "version": round_,
            "at": at,
            "actor": ACTOR,
            "deleted": False,
        }
        for round_, at in enumerate(plan.described, start=1)
    ]


def trail(id_: str, plan: Plan) -> dict[str, Any]:
    """The trail node record_edges makes at an edge's first change: the live asset's
    display fields (the null ones absent) and since when they show."""
    live = asset(id_, plan)
    shown = {k: live[k] for k in ("name", "type", "tags", "placeholder")}
    return {"id": id_, **shown, "shown_since": live["updated_at"]}


def edge(plan: Plan, history: bool) -> dict[str, Any]:
    """A live LINEAGE edge after the rounds (lineage.merge_edges): on `kept` changed
    in each; on `plain` loaded once with the last round's transformation."""
    return {
        "transformation": transformation(len(plan.changed)),
        "origins": [ORIGIN],
        "created_at": plan.loaded,
        "updated_at": plan.changed[-1] if history else plan.loaded,
    }


def edge_history(changed: list[str]) -> dict[str, Any]:
    """A LINEAGE_WAS relationship's properties after one change a round at `changed`,
    as history.record_edges leaves them: back-to-back intervals, the last open, each
    with its round's transformation; one origin asserting since the first."""
    since = list(changed)
    until = [*changed[1:], OPEN]
    props: dict[str, Any] = {
        "since": since,
        "until": until,
        "transformed": [True] * len(since),
        "transformation": [transformation(r) for r in range(1, len(since) + 1)],
        "origin": [ORIGIN],
        "origin_since": [since[0]],
        "origin_until": [OPEN],
        "first_closed": min([*until, OPEN]),
        "run_since_ms": instant_ms(since[0]),
        "last_since_ms": instant_ms(since[-1]),
        "last_until_ms": instant_ms(until[-1]),
        "last_transformation": transformation(len(since)),
    }
    if len(since) > 1:
        props |= {
            "prev_since_ms": instant_ms(since[-2]),
            "prev_until_ms": instant_ms(until[-2]),
            "prev_transformation": transformation(len(since) - 1),
        }
    return props


def batches(rows: list[Any], size: int = BATCH) -> Iterator[list[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def write(session: neo4j.Session, statement: str, rows: list[Any], **params: Any) -> None:
    key = "pairs" if "$pairs" in statement else "rows"

    def work(tx: neo4j.ManagedTransaction, batch: list[Any]) -> None:
        tx.run(statement, {key: batch, **params}).consume()

    for batch in batches(rows):
        session.execute_write(work, batch)


def build(driver: neo4j.Driver, edges: list[tuple[str, str]], plan: Plan, history: bool) -> None:
    """The graph bench.history leaves on `kept` (`history`) or `plain`, on a cleared
    database with the service's schema."""
    ids = sorted({x for pair in edges for x in pair})
    pairs = [list(p) for p in sorted(edges)]
    with driver.session() as session:
        write(session, WRITE_ASSETS, [asset(i, plan) for i in ids])
        write(session, WRITE_EDGES, pairs, props=edge(plan, history))
        if not history:
            return
        write(session, WRITE_VERSIONS, [v for i in ids for v in versions(i, plan)])
        write(session, WRITE_TRAILS, [trail(i, plan) for i in ids])
        write(session, WRITE_HISTORIES, pairs, props=edge_history(plan.changed))


def through_writers(
    driver: neo4j.Driver, queries: cypher.Queries, edges: list[tuple[str, str]], plan: Plan
) -> None:
    """bench.history's rounds on a cleared database, each transaction's clock reading
    the plan's next instant (one transaction a round at `check`'s sizes)."""
    ids = sorted({x for pair in edges for x in pair})
    rounds = len(plan.changed)
    instants = iter(plan.sequence())
    with mock.patch.object(clock, "now_iso", side_effect=lambda: next(instants)):
        load(driver, queries, edges, transformation(0), record=False)
        for round_ in range(1, rounds + 1):
            describe(driver, queries, ids, description(round_), record=True)
        for round_ in range(1, rounds + 1):
            load(driver, queries, edges, transformation(round_), record=True)
    assert next(instants, None) is None, "a write took an instant outside the plan"


def snapshot(driver: neo4j.Driver) -> dict[str, list[Any]]:
    """Every node's and relationship's properties by kind, sorted."""
    statements = {
        "nodes": "MATCH (n) WHERE n:Asset OR n:AssetTrail OR n:AssetVersion"
        " RETURN labels(n) AS kind, properties(n) AS props",
        "relationships": "MATCH (a)-[r]->(b) WHERE r:LINEAGE OR r:LINEAGE_WAS"
        " RETURN [type(r), a.id, b.id] AS kind, properties(r) AS props",
    }
    found = {}
    with driver.session() as session:
        for name, statement in statements.items():
            rows = [(r["kind"], r["props"]) for r in session.run(statement)]
            found[name] = sorted(rows, key=repr)
    return found


def answers(
    driver: neo4j.Driver, queries: cypher.Queries, roots: list[str], as_of: str
) -> list[Any]:
    """The as_of walk's whole answer for each root both ways, lists sorted."""
    statement = queries["lineage.traverse_as_of"].statement({"depth": DEPTH})
    found = []
    for root in roots:
        for side in ("downstream", "upstream"):
            params = traverse_params(root, side, as_of)
            with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
                row = session.run(statement, params).single(strict=True).data()
            found.append(
                {k: sorted(v, key=repr) if isinstance(v, list) else v for k, v in row.items()}
            )
    return found


def middle_roots(edges: list[tuple[str, str]], layers: int, count: int) -> list[str]:
    """bench.history's roots: targets in the middle layer, seeded alike."""
    middle = sorted({t for _, t in edges if t.startswith(f"l{layers // 2:02d}.")})
    return random.Random(7).sample(middle, min(count, len(middle)))


def fresh(driver: neo4j.Driver, queries: cypher.Queries) -> None:
    apply_schema(driver, queries)
    clear(driver)


def check(args: argparse.Namespace) -> None:
    edges = warehouse(args.assets, args.layers)
    plan = Plan.ending(clock.now(), args.rounds)
    queries = cypher.load()
    roots = middle_roots(edges, args.layers, args.roots)
    with instance(args.name, args.port) as kept, driver_for(kept.target) as driver:
        fresh(driver, queries)
        through_writers(driver, queries, edges, plan)
        written, walked = snapshot(driver), answers(driver, queries, roots, plan.as_of)
        clear(driver)
        build(driver, edges, plan, history=True)
        built, built_walked = snapshot(driver), answers(driver, queries, roots, plan.as_of)
    for name in written:
        assert written[name] == built[name], f"{name} differ"
        print(f"{name}: {len(written[name])}, every property equal")
    assert walked == built_walked, "as_of answers differ"
    reached = [len(a["down"]) + len(a["up"]) for a in walked]
    print(f"as_of answers equal for {len(roots)} roots both ways (nodes: {reached})")


def build_command(args: argparse.Namespace) -> None:
    edges = warehouse(args.assets, args.layers)
    plan = Plan.ending(clock.now(), args.rounds)
    queries = cypher.load()
    started = time.perf_counter()
    with instance(args.name, args.port) as target, driver_for(target.target) as driver:
        fresh(driver, queries)
        build(driver, edges, plan, history=not args.plain)
        with driver.session() as session:
            counts = session.run(
                "MATCH (n) RETURN count(n) AS nodes, COUNT { ()-[]->() } AS relationships"
            ).single(strict=True)
    print(
        f"{args.name}: {len(edges)} edges, {counts['nodes']} nodes,"
        f" {counts['relationships']} relationships in {time.perf_counter() - started:.0f} s"
        + (f"; edge rounds {plan.changed[0]} .. {plan.changed[-1]}" if not args.plain else "")
    )


def as_of_on(driver: neo4j.Driver) -> str:
    """The instant inside the last edge round but one of a built graph, read from it."""
    with driver.session() as session:
        changed = session.run(
            "MATCH ()-[w:LINEAGE_WAS]->() RETURN w.since AS since LIMIT 1"
        ).single(strict=True)["since"]
    return Plan("", [], changed).as_of


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def time_command(args: argparse.Namespace) -> None:
    edges = warehouse(args.assets, args.layers)
    roots = middle_roots(edges, args.layers, args.roots)
    queries = cypher.load()
    present = queries["lineage.traverse"].statement({"depth": DEPTH})
    past = queries["lineage.traverse_as_of"].statement({"depth": DEPTH})
    with contextlib.ExitStack() as stack:
        plain_i = stack.enter_context(instance(args.plain_name, args.plain_port))
        kept_i = stack.enter_context(instance(args.kept_name, args.kept_port))
        plain = stack.enter_context(driver_for(plain_i.target))
        kept = stack.enter_context(driver_for(kept_i.target))
        as_of = as_of_on(kept)
        ways: dict[str, Way] = {
            "today plain": partial(traverse, plain, present, as_of=None),
            "today kept": partial(traverse, kept, present, as_of=None),
            "as_of kept": partial(traverse, kept, past, as_of=as_of),
        }
        for side in ("downstream", "upstream"):
            for root in roots:  # warm-up, and the answers hold the same nodes
                found = [way(root, side) for way in ways.values()]
                assert found[0] == found[1] == found[2], f"{root} {side}: answers differ"
        print(f"as_of {as_of}; roots {roots}")
        for run in range(1, args.runs + 1):
            for side in ("downstream", "upstream"):
                measure(ways, roots, side, args.samples, run)


def measure(ways: dict[str, Way], roots: list[str], side: str, samples: int, run: int) -> None:
    before = load_average()
    times: dict[str, dict[str, list[float]]] = {r: {w: [] for w in ways} for r in roots}
    sizes = {}
    for _ in range(samples):
        for root in roots:
            for name, way in ways.items():
                started = time.perf_counter()
                sizes[root] = len(way(root, side))
                times[root][name].append(time.perf_counter() - started)

    def ratio(other: str, base: str) -> float:
        return statistics.median(
            statistics.median(times[r][other]) / statistics.median(times[r][base]) for r in roots
        )

    medians = {w: statistics.median(median_ms(times[r][w]) for r in roots) for w in ways}
    print(
        f"run {run} {side}: nodes median {statistics.median(sizes.values()):.0f};"
        + "".join(f" {w} {ms:.1f} ms;" for w, ms in medians.items())
        + f" kept/plain {ratio('today kept', 'today plain'):.2f};"
        f" as_of/today kept {ratio('as_of kept', 'today kept'):.2f};"
        f" per root as_of/today {[round(statistics.median(times[r]['as_of kept']) / statistics.median(times[r]['today kept']), 2) for r in roots]};"
        f" load {before} -> {load_average()}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_p = commands.add_parser("build")
    check_p = commands.add_parser("check")
    time_p = commands.add_parser("time")
    for p, assets in ((build_p, 100_000), (check_p, 300), (time_p, 100_000)):
        p.add_argument("--assets", type=int, default=assets)
        p.add_argument("--layers", type=int, default=20)
    for p, rounds in ((build_p, 10), (check_p, 3)):
        p.add_argument("--name", required=True)
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--rounds", type=int, default=rounds)
    build_p.add_argument("--plain", action="store_true", help="the live graph alone")
    check_p.add_argument("--roots", type=int, default=4)
    for side in ("plain", "kept"):
        time_p.add_argument(f"--{side}-name", required=True)
        time_p.add_argument(f"--{side}-port", type=int, required=True)
    time_p.add_argument("--roots", type=int, default=6)
    time_p.add_argument("--samples", type=int, default=10)
    time_p.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    if args.command == "build":
        build_command(args)
    elif args.command == "check":
        check(args)
    else:
        time_command(args)


if __name__ == "__main__":
    main()

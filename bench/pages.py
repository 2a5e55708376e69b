"""Pages of a large traversal: page 1 against page 20 of a 10,000-node neighbourhood.

Every page walks the whole neighbourhood in one statement and keeps what lies after the
cursor's position once the walk is aggregated, so a late page should cost what the
first does (the target: page 20 <= 1.2x page 1). The graph is a root, 100 children and
9,899 grandchildren with two parents each (diamonds everywhere): 10,000 nodes with the
root, so pages of 500 downstream at depth 3 make exactly 20 pages. Each sample times
`GET /lineage/root/downstream` through the service (client side, keep-alive) and the
same statement through the raw driver, page 1 and page 20 alternating, after warm-up;
medians are reported.

    .venv/bin/python -m bench.pages            # NEO4J_URI, or a local bench instance
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from urllib.parse import quote

import neo4j
import orjson

from bench.common import (
    Figure,
    bench_neo4j,
    clear_graph,
    driver_for,
    median_ms,
    running_service,
    write_summary,
)
from bench.lineage import ingest_raw
from service import clock, cypher
from service.domain.lineage_pages import After, Walk, decode, page_params

ROOT_ID = "pages.root"
CHILDREN = 100
GRANDCHILDREN = 9_899
LIMIT = 500
DEPTH = 3
PAGE = 20
RESULTS = Path(__file__).parent / "RESULTS-pages.md"


def neighbourhood() -> list[tuple[str, str]]:
    """10,000 nodes downstream of ROOT_ID: children, and grandchildren under two each."""
    children = [f"pages.c{i:03d}" for i in range(CHILDREN)]
    edges = [(ROOT_ID, c) for c in children]
    for i in range(GRANDCHILDREN):
        grandchild = f"pages.g{i:05d}"
        edges += [
            (children[i % CHILDREN], grandchild),
            (children[(i * 7 + 3) % CHILDREN], grandchild),
        ]
    return sorted(set(edges))


def path(cursor: str | None) -> str:
    query = f"?depth={DEPTH}&limit={LIMIT}" + (f"&cursor={cursor}" if cursor else "")
    return f"/lineage/{quote(ROOT_ID, safe='')}/downstream{query}"


def raw_page(driver: neo4j.Driver, statement: str, after: After) -> int:
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        row = session.run(
            statement,
            id=ROOT_ID,
            downstream=True,
            upstream=False,
            now=clock.now_iso(),
            **page_params(LIMIT, after),
        ).single(strict=True)
    return len(row["nodes"])


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=15)
    args = parser.parse_args()
    statement = cypher.load()["lineage.traverse"].statement({"depth": DEPTH})
    with bench_neo4j() as target, driver_for(target) as driver:
        clear_graph(driver)
        ingest_raw(driver, cypher.load(), neighbourhood())
        with running_service(target) as service, service.lean_client() as client:
            cursor: str | None = None
            for _ in range(PAGE - 1):  # follow the cursors to page 20's
                status, body = client.get(path(cursor))
                assert status == 200, body
                cursor = orjson.loads(body)["next_cursor"]
            last = orjson.loads(client.get(path(cursor))[1])
            assert last["next_cursor"] is None and len(last["nodes"]) == LIMIT, "not 20 pages"
            after = decode(cursor, Walk(ROOT_ID, "downstream", DEPTH))
            http: dict[int, list[float]] = {1: [], PAGE: []}
            raw: dict[int, list[float]] = {1: [], PAGE: []}
            pages: list[tuple[int, str | None, After]] = [(1, None, After()), (PAGE, cursor, after)]
            for sample in range(args.samples + 3):  # 3 warm-up rounds
                for page, at, position in pages:
                    spent = timed(partial(client.get, path(at)))
                    spent_raw = timed(partial(raw_page, driver, statement, position))
                    if sample >= 3:
                        http[page].append(spent)
                        raw[page].append(spent_raw)
    report(http, raw, args.samples)


def report(http: dict[int, list[float]], raw: dict[int, list[float]], samples: int) -> None:
    rows = [
        (name, median_ms(times[1]), median_ms(times[PAGE]))
        for name, times in (("service (HTTP)", http), ("raw driver", raw))
    ]
    ratio = rows[0][2] / rows[0][1]
    lines = [
        "# Pages of a 10,000-node neighbourhood",
        "",
        f"`bench/pages.py`: {1 + CHILDREN + GRANDCHILDREN:,} nodes with the root, depth {DEPTH}, "
        f"pages of {LIMIT}; medians of {samples} samples, page 1 and page {PAGE} alternating.",
        "",
        f"| path | page 1 (ms) | page {PAGE} (ms) | page {PAGE} / page 1 |",
        "|---|---|---|---|",
        *(f"| {n} | {one:.1f} | {late:.1f} | {late / one:.2f} |" for n, one, late in rows),
        "",
    ]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))
    write_summary(
        "pages",
        RESULTS.name,
        [Figure(f"page {PAGE} / page 1 (service, median)", round(ratio, 3), "x", "<= 1.2")],
    )


if __name__ == "__main__":
    main()

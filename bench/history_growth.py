"""What lineage history weighs on disk: `bench.history`'s store measured at points as
it makes its changes, and bytes per change as the slope of a line fitted through them.

Neo4j grows a record store's file ahead of its records (the property and array stores
by tens of MiB at a time, zero-filled), and reuses the records that a rewrite frees
(each edge change rewrites its history's arrays), so a ratio taken at one point can
land on a step. Each point therefore counts the files' sizes and, for the record
stores, the bytes up to the last non-zero byte (the records in use or freed, without
the space allocated ahead); the slope over several points, with the farthest point's
distance from the line, gives the rate and shows whether it holds.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

MIB = 2**20

# The record stores by what they hold (Neo4j 5's record format). The rest of the
# database directory: indexes (schema/), id files (*.id: the free record ids a later
# write reuses) and small stores (tokens, counts, schema rules, metadata).
STORES = {
    "neostore.nodestore.db": "nodes",
    "neostore.nodestore.db.labels": "nodes",
    "neostore.relationshipstore.db": "relationships",
    "neostore.relationshipgroupstore.db": "relationships",
    "neostore.relationshipgroupstore.degrees.db": "relationships",
    "neostore.propertystore.db": "properties",
    "neostore.propertystore.db.strings": "strings",
    "neostore.propertystore.db.arrays": "arrays",
}
KINDS = ("nodes", "relationships", "properties", "strings", "arrays", "indexes", "id files")


def kind(relative: Path) -> str:
    """What a file in the database directory holds, by its path there."""
    if relative.parts[0] == "schema":
        return "indexes"
    if relative.name.endswith(".id"):
        return "id files"
    return STORES.get(relative.name, "other")


def high_water(path: Path, block: int = 2**20) -> int:
    """Bytes up to a file's last non-zero byte, read backwards a block at a time."""
    with path.open("rb") as file:
        end = file.seek(0, 2)
        while end > 0:
            start = max(0, end - block)
            file.seek(start)
            data = file.read(end - start).rstrip(b"\0")
            if data:
                return start + len(data)
            end = start
    return 0


@dataclass(frozen=True)
class Size:
    """One measurement: bytes per kind of store file (`files`; `used`: up to each record
    store's last non-zero byte, the rest as `files`), and the transaction logs apart
    (Neo4j keeps them by its own rotation and retention, whatever the graph holds)."""

    files: dict[str, int]
    used: dict[str, int]
    logs: int

    @property
    def store(self) -> int:
        return sum(self.files.values())

    @property
    def in_use(self) -> int:
        return sum(self.used.values())


def measure(data_dir: Path, database: str = "neo4j") -> Size:
    """The files of `database` under an instance's data directory, as they are now."""
    store = data_dir / "databases" / database
    files: dict[str, int] = {}
    used: dict[str, int] = {}
    for path in store.rglob("*"):
        if path.is_file():
            name = kind(path.relative_to(store))
            size = path.stat().st_size
            files[name] = files.get(name, 0) + size
            used[name] = used.get(name, 0) + (high_water(path) if path.name in STORES else size)
    logs = data_dir / "transactions" / database
    return Size(files, used, sum(p.stat().st_size for p in logs.rglob("*") if p.is_file()))


@dataclass(frozen=True)
class Line:
    """A least-squares line through (changes, store bytes) points: bytes per change, and
    how far (bytes) the farthest point lies from it."""

    slope: float
    intercept: float
    worst: float
    points: int

    @classmethod
    def through(cls, points: Sequence[tuple[int, int]]) -> Line:
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        slope, intercept = statistics.linear_regression(xs, ys)
        worst = max(abs(y - (slope * x + intercept)) for x, y in points)
        return cls(slope, intercept, worst, len(points))


@dataclass(frozen=True)
class Point:
    """The store after `changes` of `phase`'s kind: "live" (none), "versions" (asset
    versions) or "edges" (edge changes)."""

    phase: str
    changes: int
    size: Size


@dataclass
class Growth:
    """Store sizes on `kept`: the live graph, then after every `every`-th round of asset
    versions and of edge changes (with no `every`: after a third, two thirds and all of
    them), and after the round `million` where edge changes pass a million (or the
    last)."""

    edges: int
    assets: int
    rounds: int
    million: int
    every: int = 0
    points: list[Point] = field(default_factory=list)

    def checkpoints(self) -> list[int]:
        """The rounds after which the store is measured."""
        if self.every:
            marks = set(range(self.every, self.rounds + 1, self.every))
        else:
            marks = {max(1, self.rounds // 3), max(1, 2 * self.rounds // 3)}
        return sorted(marks | {self.million, self.rounds})

    def add(self, phase: str, changes: int, size: Size) -> None:
        self.points.append(Point(phase, changes, size))
        print(
            f"store after {changes:,} {phase}: {size.store / MIB:.1f} MiB"
            f" ({size.in_use / MIB:.1f} MiB in use), transaction logs {size.logs / MIB:.1f} MiB",
            flush=True,
        )

    def phase(self, name: str) -> list[Point]:
        """A phase's points, led by the last point before it (its zero)."""
        at = [i for i, p in enumerate(self.points) if p.phase == name]
        zero = self.points[at[0] - 1]
        return [Point(name, 0, zero.size), *(self.points[i] for i in at)]

    def line(self, name: str, in_use: bool = False) -> Line:
        """The line through a phase's points: file sizes, or bytes in use."""
        return Line.through(
            [(p.changes, p.size.in_use if in_use else p.size.store) for p in self.phase(name)]
        )

    def per_asset_version(self) -> float:
        return self.line("versions").slope

    def per_edge_change(self) -> float:
        return self.line("edges").slope

    def per_edge_change_at_million(self) -> float:
        """The plain ratio where edge changes pass a million: growth since the last
        asset version over the changes."""
        zero, *points = self.phase("edges")
        at = next(p for p in points if p.changes == self.million * self.edges)
        return (at.size.store - zero.size.store) / at.changes


def row(name: str, point: Point, zero: Point | None) -> str:
    """One point: MiB of the files, in use, per kind (in use), the logs; bytes per change
    since its phase began (files, in use)."""
    size = point.size
    kinds = " | ".join(f"{size.used.get(k, 0) / MIB:.1f}" for k in KINDS)
    ratio = " | "
    if zero is not None:
        files = (size.store - zero.size.store) / point.changes
        used = (size.in_use - zero.size.in_use) / point.changes
        ratio = f"{files:.0f} | {used:.0f}"
    return (
        f"| {point.changes:,} {name} | {size.store / MIB:.1f} | {size.in_use / MIB:.1f}"
        f" | {kinds} | {size.logs / MIB:.1f} | {ratio} |"
    )


def fitted(what: str, growth: Growth, name: str) -> str:
    files, used = growth.line(name), growth.line(name, in_use=True)
    return (
        f"- bytes per {what}: **{files.slope:.0f}** in files, **{used.slope:.0f}** in use"
        f" (least-squares slopes over {files.points} points; the farthest point lies"
        f" {files.worst / MIB:.1f} and {used.worst / MIB:.1f} MiB off the lines)"
    )


def table(growth: Growth) -> list[str]:
    """The points and the fitted lines, as Markdown lines."""
    rows = [row("live", growth.points[0], None)]
    for name in ("versions", "edges"):
        zero, *points = growth.phase(name)
        rows += [row(name, p, zero) for p in points]
    return [
        f"| point | files MiB | in use MiB | {' | '.join(KINDS)} | transaction logs MiB"
        " | B per change since the phase began: files | in use |",
        "|---|---|---|" + "---|" * len(KINDS) + "---|---|---|",
        *rows,
        "",
        "Per kind: MiB in use. In use: each record store up to its last non-zero byte.",
        "",
        fitted("asset version", growth, "versions"),
        fitted("edge change", growth, "edges"),
    ]

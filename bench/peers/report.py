"""RESULTS.md and the latency plot from the measured cases."""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path
from typing import Any

from bench.peers.graph import Dag
from bench.peers.stats import Case, median_ms, p90_ms


def _ms(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.1f}"


def _median_count(values: list[int]) -> str:
    return "—" if not values else f"{statistics.median(values):g}"


def _their_cell(case: Case, figure: float) -> str:
    if case.their_errors and not case.their_times:
        return f"failed: {case.their_errors[0]}"
    return _ms(figure)


def row(case: Case, timeout_s: float) -> str:
    ours, theirs = median_ms(case.ours), median_ms(case.their_times)
    if not case.their_errors:
        ratio = f"{ours / theirs:.2f}"
    elif case.their_errors[0].startswith("no answer"):  # theirs took longer than the timeout
        ratio = f"< {ours / (timeout_s * 1000):.4f}"
    else:
        ratio = "—"
    same = "—" if not case.their_tables else ("yes" if case.same_tables else "**no**")
    return (
        f"| {case.graph} | {case.side} | {case.depth} | {_ms(ours)} | {_ms(p90_ms(case.ours))} "
        f"| {_their_cell(case, theirs)} | {_their_cell(case, p90_ms(case.their_times))} "
        f"| {ratio} | {_median_count(case.our_tables)} | {_median_count(case.their_tables)} "
        f"| {_median_count(case.their_items)} | {same} | {len(case.ours)} / {len(case.theirs)} |"
    )


def render(
    args: argparse.Namespace,
    dag: Dag,
    roots: dict[str, list[str]],
    cases: list[Case],
    env: dict[str, str],
    hooks: list[dict[str, Any]],
    plot: Path,
) -> str:
    lines = [
        "# Lineage: this service beside Amundsen's metadata service",
        "",
        "Produced by `python -m bench.peers` (`make bench-peers`); see bench/peers/README.md",
        "for the setup and the two compatibility hooks Amundsen needs on Neo4j 5.",
        "",
        f"Warehouse: {len(dag.tables):,} tables in {args.layers} layers, {len(dag.edges):,} "
        f"edges (seed 42). Roots: {len(roots['upstream'])} tables of the top layer "
        f"(upstream) and {len(roots['downstream'])} of the bottom layer (downstream), "
        f"seed 7; {args.samples} rounds over them per case, after one warm-up round, ours "
        "and theirs alternating request by request. Amundsen requests time out after "
        f"{args.timeout:g} s.",
        "",
        "Lattices: N layers of two tables, each fed by both tables below, under one top "
        "table, so an upstream walk of N hops from the top meets 2^N paths and 2N tables. "
        f"Ours is asked {args.lattice_samples} times (after a warm-up request), then "
        "theirs, which stops at its first failure; after a failure the run waits until "
        "Amundsen's Neo4j has no query left running (a walk the client gave up on runs on "
        "until Neo4j's 60 s transaction timeout). A ratio with `<` is ours over the "
        "timeout: an upper bound.",
        "",
        "Latencies are client-side milliseconds for the whole HTTP request. *Tables* is "
        "the median number of distinct tables in an answer (root excluded); *items* is "
        "the median length of Amundsen's answer, which lists a table once per distinct "
        "(level, parent) it was reached by. *Same* says whether both answers named the "
        "same tables for every root. *n* is requests measured (ours / theirs).",
        "",
        "| graph | direction | depth | ours median | ours p90 | theirs median | theirs p90 "
        "| ours/theirs | tables (ours) | tables (theirs) | items (theirs) | same | n |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
        *(row(case, args.timeout) for case in cases),
        "",
        f"![median latency by depth]({plot.name})",
        "",
        "## Amundsen's compatibility hooks, checked",
        "",
        "The same upstream lineage request (depth 2) through Amundsen's app with both hooks "
        "of bench/peers/amundsen/peer_config.py, then without each one:",
        "",
        "| configuration | status | body (start) |",
        "|---|---:|---|",
        *(
            f"| {h['config']} | {h['status']} | `{' '.join(h['body'].split())[:120].replace('|', '/')}` |"
            for h in hooks
        ),
        "",
        "## Environment",
        "",
        *(f"- {key}: {value}" for key, value in env.items()),
        "",
    ]
    return "\n".join(lines)


def write_plot(cases: list[Case], path: Path, timeout_s: float) -> None:
    """Median latency by depth, one panel per direction, p90 as the error bar's top;
    then the lattices by path count, their timeouts drawn at the timeout."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    warehouse = [c for c in cases if c.graph == "warehouse"]
    lattices = sorted((c for c in cases if c.graph.startswith("lattice")), key=lambda c: c.depth)
    sides = sorted({c.side for c in warehouse}, reverse=True)
    panels = len(sides) + (1 if lattices else 0)
    figure, axes = plt.subplots(1, panels, figsize=(5 * panels, 4), squeeze=False)
    for axis, side in zip(axes[0], sides, strict=False):
        mine = sorted((c for c in warehouse if c.side == side), key=lambda c: c.depth)
        for label, samples, marker in (
            ("this service", [c.ours for c in mine], "o"),
            ("Amundsen metadata 3.13", [c.their_times for c in mine], "s"),
        ):
            depths = [c.depth for c, s in zip(mine, samples, strict=True) if s]
            medians = [median_ms(s) for s in samples if s]
            tops = [p90_ms(s) - median_ms(s) for s in samples if s]
            axis.errorbar(
                depths,
                medians,
                yerr=[[0] * len(tops), tops],
                marker=marker,
                capsize=3,
                label=label,
            )
        axis.set_xticks(sorted({c.depth for c in mine}))
        axis.set_title(f"warehouse, {side} lineage")
        axis.set_xlabel("depth (hops)")
        axis.set_ylabel("latency, ms (median; bar to p90)")
    if lattices:
        axis = axes[0][-1]
        axis.plot(
            [c.depth for c in lattices],
            [median_ms(c.ours) for c in lattices],
            marker="o",
            label="this service",
        )
        answered = [c for c in lattices if c.their_times]
        axis.plot(
            [c.depth for c in answered],
            [median_ms(c.their_times) for c in answered],
            marker="s",
            label="Amundsen metadata 3.13",
        )
        timed_out = [c for c in lattices if c.their_errors and c.theirs]
        if timed_out:
            axis.scatter(
                [c.depth for c in timed_out],
                [timeout_s * 1000] * len(timed_out),
                marker="x",
                color="red",
                zorder=3,
                label=f"Amundsen: no answer in {timeout_s:g} s",
            )
        axis.set_xticks([c.depth for c in lattices])
        axis.set_xticklabels([f"2^{c.depth}" for c in lattices])
        axis.set_title("exploding paths (lattice, upstream from the top)")
        axis.set_xlabel("paths")
        axis.set_ylabel("latency, ms (median)")
    for axis in axes[0]:
        axis.set_yscale("log")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)

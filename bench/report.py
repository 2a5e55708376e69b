"""bench/RESULTS.md from the summaries the benchmarks leave in bench/results/: each
headline figure beside its target, links to each benchmark's detailed results, and
its plots. `make bench` runs every benchmark, then this.

    python -m bench.report
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.common import SUMMARIES

BENCH = Path(__file__).parent
ORDER = ["lineage", "peers", "ingest", "writers", "scale", "manifest", "processes", "dashboard"]


def _rank(summary: dict[str, Any]) -> tuple[int, str]:
    name = summary["benchmark"]
    return (ORDER.index(name) if name in ORDER else len(ORDER), name)


def _value(figure: dict[str, Any]) -> str:
    value = figure["value"]
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.2f}"
    return f"{text} {figure['unit']}".strip()


def render(summaries: list[dict[str, Any]]) -> str:
    lines = [
        "# Benchmark results",
        "",
        "Written by `make bench` (`python -m bench.report`) from the summaries each "
        "benchmark leaves in `bench/results/`. Figures are medians unless named otherwise; "
        "every ratio is taken in the same run as what it is compared with.",
        "",
    ]
    missed = [
        (s["benchmark"], f["name"]) for s in summaries for f in s["figures"] if f["met"] is False
    ]
    targets = sum(1 for s in summaries for f in s["figures"] if f["met"] is not None)
    lines += [f"**{targets - len(missed)} of {targets} targets met.**", ""]
    for summary in sorted(summaries, key=_rank):
        env = summary["environment"]
        lines += [
            f"## {summary['benchmark']}",
            "",
            f"{env['date']}, {env['machine']}; details: [{summary['details']}]({summary['details']})",
            "",
            "| figure | value | target | met |",
            "|---|---|---|---|",
        ]
        for figure in summary["figures"]:
            met = {True: "yes", False: "**no**", None: ""}[figure["met"]]
            lines.append(f"| {figure['name']} | {_value(figure)} | {figure['target']} | {met} |")
        lines.append("")
        for plot in summary.get("plots", []):
            lines += [f"![{Path(plot).stem}]({plot})", ""]
    return "\n".join(lines)


def main() -> None:
    summaries = [json.loads(p.read_text()) for p in sorted(SUMMARIES.glob("*.json"))]
    (BENCH / "RESULTS.md").write_text(render(summaries))
    print(f"bench/RESULTS.md: {len(summaries)} benchmarks")


if __name__ == "__main__":
    main()

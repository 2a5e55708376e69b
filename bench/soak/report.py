"""bench/RESULTS-soak.md and its plot: answers and latency per operation, memory
over time with its slope."""

from __future__ import annotations

import os
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import environment
from bench.soak.load import MIX, Sample
from bench.soak.memory import after_warmup, slope_per_minute

WARMUP_SHARE = 0.2


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Soak:
    duration_s: float
    rate: float
    saturation: float | None
    fraction: float | None
    samples: list[Sample]
    skipped: int
    memory: dict[str, list[tuple[float, float]]]
    max_slope: float
    clients: int = 16
    saturation_samples: list[Sample] = field(default_factory=list)

    def server_errors(self) -> int:
        return sum(1 for s in self.samples if s.status >= 500)

    def unanswered(self) -> int:
        return sum(1 for s in self.samples if s.status == 0)

    def slopes(self) -> dict[str, tuple[float, float]]:
        """Per process: slope over the whole run, and after the warm-up (MiB/min)."""
        return {
            name: (slope_per_minute(points), slope_per_minute(after_warmup(points, WARMUP_SHARE)))
            for name, points in self.memory.items()
        }

    def failed(self) -> bool:
        """Memory is gated for the service only: Neo4j's heap and page cache are fixed by
        its configuration, and a JVM's resident set grows towards them as it touches
        pages, so its slope is reported, not judged."""
        flat = self.slopes().get("service", (0.0, 0.0))[1] <= self.max_slope
        return self.server_errors() > 0 or self.unanswered() > 0 or not flat

    def write(self, path: Path, plot: Path) -> None:
        _plot(self, plot)
        achieved = len(self.samples) / self.duration_s if self.duration_s else 0
        how = (
            f"{self.fraction:.0%} of the measured saturation ({self.saturation:.1f} requests/s "
            f"with {self.clients} back-to-back clients)"
            if self.saturation is not None and self.fraction is not None
            else "set with --rate"
        )
        lines = [
            "# Soak results",
            "",
            "Written by `python -m bench.soak` (docs/reliability.md). Loopback only; the "
            "machine may have been shared, which moves latency, not the checks.",
            "",
            *(f"- {k}: {v}" for k, v in environment().items()),
            f"- load average (1, 5, 15 min) when written: {_load()}",
            f"- duration {self.duration_s:g} s at {self.rate:.1f} requests/s, {how}; "
            f"{len(self.samples)} responses ({achieved:.1f}/s), {self.skipped} ticks skipped "
            "with 256 requests open",
            "",
            f"**Verdict: {'FAILED' if self.failed() else 'passed'}** "
            f"({self.server_errors()} 5xx, {self.unanswered()} unanswered; the service's "
            f"memory slope after the first {WARMUP_SHARE:.0%} at most {self.max_slope:g} "
            "MiB/min; Neo4j's is reported, its heap and page cache being fixed).",
            "",
            "| operation | responses | 2xx | 4xx | 5xx | unanswered | p50 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        lines += _op_rows(self.samples)
        lines += [
            "",
            "## Memory (resident set size)",
            "",
            "| process | samples | first MiB | last MiB | max MiB | slope MiB/min (all) "
            "| slope MiB/min (after warm-up) |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, (whole, warm) in self.slopes().items():
            points = self.memory[name]
            values = [v for _, v in points]
            lines.append(
                f"| {name} | {len(points)} | {values[0]:.0f} | {values[-1]:.0f} "
                f"| {max(values):.0f} | {whole:+.2f} | {warm:+.2f} |"
            )
        lines += ["", f"![memory and latency over time]({plot.name})", ""]
        if self.saturation_samples:
            lines += [
                "## While measuring saturation",
                "",
                f"{self.clients} clients back to back; these responses are not part of the "
                "soak's checks (a 503 here is the service shedding load as it should).",
                "",
                "| operation | responses | 2xx | 4xx | 5xx | unanswered | p50 ms | p99 ms | max ms |",
                "|---|---|---|---|---|---|---|---|---|",
                *_op_rows(self.saturation_samples),
                "",
            ]
        path.write_text("\n".join(lines) + "\n")


def _op_rows(samples: list[Sample]) -> list[str]:
    by_op: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_op[s.op].append(s)
    rows = []
    for op in [*MIX, "all"]:
        chosen = samples if op == "all" else by_op.get(op, [])
        ms = [s.seconds * 1000 for s in chosen]
        statuses = [s.status for s in chosen]
        rows.append(
            f"| {op} | {len(chosen)} | {sum(200 <= c < 300 for c in statuses)} "
            f"| {sum(400 <= c < 500 for c in statuses)} | {sum(c >= 500 for c in statuses)} "
            f"| {statuses.count(0)} | {percentile(ms, 0.5):.1f} | {percentile(ms, 0.99):.1f} "
            f"| {max(ms, default=float('nan')):.1f} |"
        )
    return rows


def _plot(soak: Soak, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (mem, lat) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    for name, points in soak.memory.items():
        mem.plot([t / 60 for t, _ in points], [v for _, v in points], label=f"{name} RSS")
    mem.set_ylabel("MiB")
    mem.set_ylim(bottom=0)
    mem.legend()
    mem.set_title("Resident memory")
    windows: dict[int, list[float]] = defaultdict(list)
    for s in soak.samples:
        windows[int(s.at // 10)].append(s.seconds * 1000)
    keys = sorted(windows)
    minutes = [k * 10 / 60 for k in keys]
    lat.plot(minutes, [statistics.median(windows[k]) for k in keys], label="p50")
    lat.plot(minutes, [percentile(windows[k], 0.99) for k in keys], label="p99")
    lat.set_ylabel("ms (10 s windows, all operations)")
    lat.set_xlabel("minutes")
    lat.set_yscale("log")
    lat.legend()
    lat.set_title("Latency")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _load() -> str:
    """How busy the machine was: figures taken on a shared machine say so."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())

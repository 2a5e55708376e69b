"""Resident memory of the service and of Neo4j, sampled on a timer, and the slope
of a least-squares line through the samples (MiB per minute): flat memory is a
slope near zero once the processes have warmed up."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path


def rss_mib(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


@dataclass
class Sampler:
    pids: dict[str, int | None]
    every_s: float
    started: float = field(default_factory=time.monotonic)
    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Sampler:
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(10)

    def _run(self) -> None:
        while True:
            at = time.monotonic() - self.started
            for name, pid in self.pids.items():
                value = rss_mib(pid)
                if value is not None:
                    self.samples.setdefault(name, []).append((at, value))
            if self._stop.wait(self.every_s):
                return


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MiB) points, in MiB per minute."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return 0.0
    cov = sum((t - mean_t) * (v - mean_v) for t, v in points)
    return cov / var * 60


def after_warmup(points: list[tuple[float, float]], share: float) -> list[tuple[float, float]]:
    """The points after the first `share` of the run (start-up, caches filling)."""
    if not points:
        return points
    cut = points[-1][0] * share
    return [p for p in points if p[0] >= cut]

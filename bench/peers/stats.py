"""One measured case and the figures drawn from it."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field


@dataclass
class Case:
    """One question (direction, depth) asked of both services from the same roots."""

    graph: str
    side: str
    depth: int
    ours: list[float] = field(default_factory=list)
    theirs: list[float | None] = field(default_factory=list)  # None: timed out or failed
    our_tables: list[int] = field(default_factory=list)
    their_tables: list[int] = field(default_factory=list)
    their_items: list[int] = field(default_factory=list)
    same_tables: bool = True
    their_errors: list[str] = field(default_factory=list)

    @property
    def their_times(self) -> list[float]:
        return [t for t in self.theirs if t is not None]


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000 if samples else math.nan


def p90_ms(samples: list[float]) -> float:
    """The nearest-rank 90th percentile."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)] * 1000

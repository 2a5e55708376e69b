"""bench/RESULTS-faults.md: per scenario, what was sent, what was answered, and what
Neo4j held afterwards."""

from __future__ import annotations

import os
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.common import environment
from bench.faults import flaky_proxy, neo4j_kill, webhooks
from bench.faults.ledger import Ledger
from bench.faults.payloads import WORKLOADS

COLUMNS = (
    "sent",
    "acknowledged",
    "refused",
    "no answer",
    "wrong",
    "5xx",
    "500",
    "lost",
    "partial",
    "resent",
    "written, unacknowledged",
)


@dataclass
class Results:
    rounds: int
    seed: int
    neo4j_kill: neo4j_kill.Outcome | None = None
    webhooks: webhooks.Outcome | None = None
    proxy: flaky_proxy.Outcome | None = None

    def failed(self) -> bool:
        ledgers = [o.ledger for o in (self.neo4j_kill, self.proxy) if o]
        lost = sum(r.lost for r in self.webhooks.rounds) if self.webhooks else 0
        return lost > 0 or any(ledger.violations() for ledger in ledgers)

    def write(self, path: Path) -> None:
        lines = [
            "# Fault injection results",
            "",
            "Written by `python -m bench.faults` (docs/reliability.md says what each "
            "scenario injects and checks). Loopback only; the machine may have been shared.",
            "",
            *(f"- {k}: {v}" for k, v in environment().items()),
            f"- rounds per scenario: {self.rounds}, seed {self.seed}",
            f"- load average (1, 5, 15 min) when written: {_load()}",
            "",
            f"**Verdict: {'FAILED' if self.failed() else 'passed'}** (0 lost, 0 partial, "
            "every refusal a 503 with Retry-After, every webhook event delivered).",
            "",
        ]
        if self.neo4j_kill:
            o = self.neo4j_kill
            lines += [
                "## kill -9 Neo4j during writes",
                "",
                f"{o.rounds} rounds. From the restart until every workload was acknowledged "
                f"again: median {_median(o.restart_s):.1f} s, max "
                f"{max(o.restart_s, default=0):.1f} s (Neo4j's start and crash recovery).",
                "",
                *_ledger_table(o.ledger),
            ]
        if self.webhooks:
            lines += _webhooks(self.webhooks)
        if self.proxy:
            o2 = self.proxy
            lines += [
                "## Dropped and slowed Bolt connections (proxy)",
                "",
                f"{o2.rounds} rounds, {o2.drops} drops of every open connection, "
                f"{o2.cuts} one-second refusals of new connections.",
                "",
                *_ledger_table(o2.ledger),
            ]
        path.write_text("\n".join(lines) + "\n")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _ledger_table(ledger: Ledger) -> list[str]:
    summary = ledger.summary()
    total: Counter[str] = Counter()
    rows = ["| workload | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for workload in WORKLOADS:
        counts = summary.get(workload, Counter())
        total += counts
        rows.append(f"| {workload} | " + " | ".join(str(counts[c]) for c in COLUMNS) + " |")
    rows.append("| **all** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
    rows += [
        "",
        "Acknowledged = 2xx; refused = 503 with Retry-After; no answer = the connection "
        "broke or timed out; wrong = any other status. Lost = acknowledged but absent; "
        "partial = some of a request's rows there; resent = a partly written manifest sent "
        "again (its documented way to finish), after which it counts as complete.",
        "",
    ]
    bad = ledger.violations()
    if bad:
        rows += ["Violations (first 20):", ""]
        rows += [
            f"- {e.write.workload} {e.write.key}: status {e.status}, {e.state} "
            f"({e.stored}/{e.write.expected}) {e.error or ''}".rstrip()
            for e in bad[:20]
        ]
        rows.append("")
    statuses = Counter(str(e.status) for e in ledger.entries)
    rows += ["Statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())), ""]
    return rows


def _webhooks(outcome: webhooks.Outcome) -> list[str]:
    rounds = outcome.rounds
    events = sum(r.events for r in rounds)
    delivered = sum(r.delivered for r in rounds)
    lines = [
        "## kill -9 the service with webhook deliveries pending",
        "",
        f"{len(rounds)} rounds, {events} events, {delivered} delivered, "
        f"{sum(r.lost for r in rounds)} lost, {sum(r.duplicates for r in rounds)} duplicate "
        "deliveries (same event id; at-least-once allows them, the receiver drops them). "
        f"All delivered in median {_median([r.seconds_to_all for r in rounds]):.1f} s after "
        "the kill (the dead process's 15 s lease expires first).",
        "",
        "| round | shape | events | delivered before the kill | delivered | lost | duplicates | s to all |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {i + 1} | {r.shape} | {r.events} | {r.delivered_before_kill} | {r.delivered} "
        f"| {r.lost} | {r.duplicates} | {r.seconds_to_all:.1f} |"
        for i, r in enumerate(rounds)
    ]
    return [*lines, ""]


def _load() -> str:
    """How busy the machine was: figures taken on a shared machine say so."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())

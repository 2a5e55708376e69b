"""Requests sent while something fails, what each was answered, and what Neo4j holds
for each once it is back.

An answer is one of: acknowledged (2xx), refused as it should be (503 with a
Retry-After), no answer (the connection broke or timed out) or wrong (anything else:
a 500, a 503 without Retry-After, an unexpected 4xx). After the fault each request's
rows are counted: complete, absent or partial. An acknowledged request that is not
complete is lost (absent) or partial; an unanswered or refused one may be complete
or absent but never partial, except a manifest upload, which is written in several
transactions and is completed by sending it again (the harness does, and checks).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
import neo4j

from bench.faults.payloads import WORKLOADS, Write
from tests.support.waiting import eventually

# Seconds a worker rests after a refusal, so a down database is not hammered.
REFUSAL_PAUSE_S = 0.5


@dataclass
class Entry:
    write: Write
    status: int | None  # None: no answer
    retry_after: str | None
    error: str | None = None
    stored: int | None = None
    resent: bool = False

    @property
    def answer(self) -> str:
        if self.status is None:
            return "no answer"
        if 200 <= self.status < 300:
            return "acknowledged"
        if self.status == 503 and self.retry_after:
            return "refused"
        return "wrong"

    @property
    def state(self) -> str:
        if self.stored is None:
            return "unchecked"
        if self.stored == self.write.expected:
            return "complete"
        return "absent" if self.stored == 0 else "partial"


@dataclass
class Ledger:
    entries: list[Entry] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, client: httpx.Client, write: Write) -> Entry:
        try:
            response = client.request(write.method, write.path, json=write.body)
            entry = Entry(write, response.status_code, response.headers.get("retry-after"))
            if entry.answer == "wrong":
                entry.error = response.text[:300]
        except httpx.HTTPError as exc:
            entry = Entry(write, None, None, f"{type(exc).__name__}: {exc}"[:300])
        with self._lock:
            self.entries.append(entry)
        return entry

    def check(self, driver: neo4j.Driver, client: httpx.Client) -> None:
        """Count every entry's rows; a partly written manifest is sent again and must
        then be complete (its documented way to finish)."""
        for entry in self.entries:
            if entry.stored is not None:
                continue
            entry.stored = entry.write.stored(driver)
            if entry.state == "partial" and entry.write.workload == "manifest":
                entry.resent = True
                resent = client.request(entry.write.method, entry.write.path, json=entry.write.body)
                if resent.status_code < 300:
                    entry.stored = entry.write.stored(driver)

    def summary(self) -> dict[str, Counter[str]]:
        """Per workload: answers, states, and the violations among them."""
        out: dict[str, Counter[str]] = {}
        for entry in self.entries:
            counts = out.setdefault(entry.write.workload, Counter())
            counts["sent"] += 1
            counts[entry.answer] += 1
            if entry.status is not None and entry.status >= 500:
                counts["5xx"] += 1
            if entry.status == 500:
                counts["500"] += 1
            if entry.answer == "acknowledged" and entry.state == "absent":
                counts["lost"] += 1
            if entry.state == "partial":
                counts["partial"] += 1
            if entry.resent:
                counts["resent"] += 1
            if entry.state == "complete" and entry.answer != "acknowledged":
                counts["written, unacknowledged"] += 1
        return out

    def acknowledged_since(self, index: int) -> set[str]:
        """The workloads with an acknowledged request among entries[index:]."""
        with self._lock:
            return {e.write.workload for e in self.entries[index:] if e.answer == "acknowledged"}

    def wait_acknowledged(self, since: int, timeout: float, what: str) -> None:
        """Until every workload has an acknowledged request among entries[since:]."""
        every = set(WORKLOADS)
        eventually(
            lambda: self.acknowledged_since(since) >= every,
            timeout=timeout,
            interval=0.2,
            what=f"every workload acknowledged {what}",
        )

    def violations(self) -> list[Entry]:
        return [
            e
            for e in self.entries
            if e.answer == "wrong"
            or e.state == "partial"
            or (e.answer == "acknowledged" and e.state != "complete")
        ]


def run_workers(
    ledger: Ledger,
    client: httpx.Client,
    makers: dict[str, Callable[[int], Write]],
    stop: threading.Event,
) -> list[threading.Thread]:
    """One thread per workload, each sending its requests one after another until
    `stop` is set."""

    def work(make: Callable[[int], Write]) -> None:
        n = 0
        while not stop.is_set():
            entry = ledger.send(client, make(n))
            n += 1
            if entry.answer != "acknowledged":
                stop.wait(REFUSAL_PAUSE_S)

    threads = [threading.Thread(target=work, args=(m,), daemon=True) for m in makers.values()]
    for thread in threads:
        thread.start()
    return threads


def end_round(
    stop: threading.Event,
    threads: list[threading.Thread],
    ledger: Ledger,
    driver: neo4j.Driver,
    client: httpx.Client,
    total: Ledger,
) -> None:
    """Stop the round's workers, check its requests against what Neo4j holds, and add
    them to the run's ledger."""
    stop.set()
    for thread in threads:
        thread.join(120)
    ledger.check(driver, client)
    total.entries += ledger.entries


def pause(seconds: float) -> None:
    """The harness's deliberate waits (how long a fault lasts), as opposed to waiting
    for a condition."""
    time.sleep(seconds)

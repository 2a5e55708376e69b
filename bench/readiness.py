"""Waiting for a benchmark's service to be ready for as long as it is getting there.

A fixed budget fails on a loaded machine: at load 24 the service had not applied its
schema 120 s after it started, and `bench.history` stopped before its first round.
Here the service is waited for on its own readiness endpoint (`/readyz`) for as long
as it shows progress: its process is alive and, within the last `stall` seconds, it
used CPU, wrote to its log or changed its answer. A process that exits, or stays still
that long, fails the wait at once, saying what it last answered and showing its log.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.support.process import ServiceProcess

# Seconds without any sign of progress before the wait gives up.
STALL_S = 300.0
# Seconds between the progress lines printed while waiting.
REPORT_S = 15.0


@dataclass
class Progress:
    """What the service showed of itself at the last look, and when it last moved."""

    started: float = field(default_factory=time.monotonic)
    moved: float = field(default_factory=time.monotonic)
    reported: float = field(default_factory=time.monotonic)
    signs: tuple[object, ...] = ()

    def look(self, signs: tuple[object, ...], now: float) -> None:
        if signs != self.signs:
            self.signs, self.moved = signs, now


class PatientService(ServiceProcess):
    """A `ServiceProcess` whose start waits on `/readyz` while the service makes progress
    (see the module's docstring), printing where it is every REPORT_S seconds."""

    stall: float = STALL_S

    def start(self, timeout: float = math.inf) -> PatientService:
        """Ready, or failed: the process exited or showed no progress for `stall`
        seconds. `timeout` bounds the whole wait as well (none by default)."""
        self._progress = Progress()
        super().start(timeout=timeout)
        return self

    def _ready(self) -> bool:
        # Called again and again by the wait in `ServiceProcess.start`: a RuntimeError
        # ends the wait at once, an httpx.TransportError (not answering yet) retries.
        assert self.process is not None
        code = self.process.poll()
        if code is not None:
            raise RuntimeError(f"the service exited ({code}) while starting:\n{self.log_tail()}")
        now = time.monotonic()
        answer = _readiness(self.url)
        progress = self._progress
        progress.look((answer, _cpu_ticks(self.process.pid), _size(self.log_path)), now)
        if answer == "ready":
            return True
        waited = now - progress.started
        if now - progress.moved > self.stall:
            raise RuntimeError(
                f"the service on {self.url} showed no progress for {self.stall:g} s"
                f" ({waited:.0f} s after it started; last answer: {answer}):\n{self.log_tail()}"
            )
        if now - progress.reported >= REPORT_S:
            progress.reported = now
            print(f"service on {self.url}: not ready after {waited:.0f} s ({answer})", flush=True)
        return False


def _readiness(url: str) -> str:
    """`ready`, the problem code /readyz answered, or why it did not answer."""
    try:
        response = httpx.get(url + "/readyz", timeout=5)
    except httpx.TransportError as exc:
        return f"no answer yet ({type(exc).__name__})"
    if response.status_code == 200:
        return "ready"
    try:
        code = response.json().get("code")
    except ValueError:
        code = None
    return f"{response.status_code} {code or ''}".strip()


def _cpu_ticks(pid: int) -> int:
    """The process's user and system CPU time so far, in clock ticks (0 once gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0

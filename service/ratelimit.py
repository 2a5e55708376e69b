"""In-process limits: a token bucket per API token, a failure window per client, and
the dashboard's sign-in throttle built from two such windows.

Per process on purpose: the limits protect this process and Neo4j behind it
without a shared store; with N processes a token may reach N times the rate.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from service.settings import RateLimit

MAX_TRACKED = 10_000


@dataclass
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_s: int
    retry_after_s: int

    def headers(self) -> dict[str, str]:
        headers = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_s),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after_s)
        return headers


class TokenBuckets:
    def __init__(self, per_second: float, burst: int) -> None:
        self.rate = per_second
        self.burst = burst
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> Decision:
        now = time.monotonic() if now is None else now
        level, last = self._buckets.pop(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - last) * self.rate)
        allowed = level >= 1.0
        if allowed:
            level -= 1.0
        self._buckets[key] = (level, now)
        if len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)
        return Decision(
            allowed=allowed,
            limit=self.burst,
            remaining=int(level),
            reset_s=math.ceil((self.burst - level) / self.rate),
            retry_after_s=max(1, math.ceil((1.0 - level) / self.rate)),
        )


class FailureWindow:
    """Counts authentication failures per client over the last minute."""

    WINDOW_S = 60.0

    def __init__(self, max_failures: int) -> None:
        self.max_failures = max_failures
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._failures.get(client, deque())
        while times and times[0] <= now - self.WINDOW_S:
            times.popleft()
        return times

    def blocked_for(self, client: str, now: float | None = None) -> int:
        """Seconds the client must wait, 0 when it may try."""
        now = time.monotonic() if now is None else now
        times = self._recent(client, now)
        if len(times) < self.max_failures:
            return 0
        return max(1, math.ceil(times[0] + self.WINDOW_S - now))

    def record(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        times = self._recent(client, now)
        times.append(now)
        self._failures[client] = times
        self._failures.move_to_end(client)
        if len(self._failures) > MAX_TRACKED:
            self._failures.popitem(last=False)


class SignInThrottle:
    """Failed sign-ins in the last minute, per username and per client address; and
    sign-ins started through the identity provider (each stores a flow and calls the
    provider, so it is counted whether or not it ends well).

    Starts are counted per browser, by the mark a start hands out
    (`service.domain.access.browser_marks`), so browsers behind one proxy address do
    not share a budget; starts without a mark (a new browser, or a client that drops
    its cookies) per client address, which also bounds how fast one address gets new
    marks; and every start against one ceiling for the whole process. Each per-key
    window holds the same number a minute as failures."""

    def __init__(self, limits: RateLimit) -> None:
        self.per_user = FailureWindow(limits.sign_in_failures_per_minute)
        self.per_client = FailureWindow(limits.auth_failures_per_minute)
        self.per_browser = FailureWindow(limits.auth_failures_per_minute)
        self.unmarked = FailureWindow(limits.auth_failures_per_minute)
        self.everyone = FailureWindow(limits.sso_starts_per_minute)

    def start(self, client: str, browser: str, marked: bool) -> int:
        """Seconds to wait before starting another single sign-on (0: the start is
        counted and may go on). `browser`: the id of the browser's mark, or of the one
        this start would hand out when it came without one (`marked` false)."""
        windows = [(self.everyone, ""), (self.per_browser, browser)]
        if not marked:
            windows.append((self.unmarked, client))
        wait = max(window.blocked_for(key) for window, key in windows)
        if not wait:
            for window, key in windows:
                window.record(key)
        return wait

    def wait(self, username: str, client: str) -> int:
        return max(self.per_user.blocked_for(username.lower()), self.per_client.blocked_for(client))

    def failed(self, username: str, client: str) -> None:
        self.per_user.record(username.lower())
        self.per_client.record(client)

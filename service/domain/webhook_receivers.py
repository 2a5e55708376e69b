"""Which webhook receivers may be sent another attempt now, and how many: a limit
on the attempts each has under way, and a circuit breaker each.

Both keep one receiver's trouble its own. The limit stops a slow receiver from
holding every connection the dispatcher has; the breaker stops a dead one from
being sent attempts that will only fail. After `failures` attempts to a receiver
fail in a row (an error answer, a refused connection, a timeout) its breaker opens
and it gets no attempt for `cooldown_s`; then one attempt, the probe, goes out. A
probe that succeeds closes the breaker, one that fails opens it for another
cooldown. Deliveries not attempted meanwhile stay pending and lose no retry.

The state lives in the dispatching process only: a process that takes the lead over
starts with every breaker closed, so a dead receiver costs it `failures` attempts
more. Pure logic: the caller passes the time, from a monotonic clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class _Receiver:
    in_flight: int = 0
    failures: int = 0  # in a row
    opened_at: float | None = None  # set while the breaker is open or half open


class ReceiverGate:
    def __init__(self, max_in_flight: int, failures: int, cooldown_s: float) -> None:
        """Bounds are the settings' (`WebhookSettings`): at least 1, 1 and 0 s."""
        self.max_in_flight = max_in_flight
        self.failures = failures
        self.cooldown_s = cooldown_s
        self._receivers: dict[str, _Receiver] = {}

    def room(self, now: float) -> dict[str, int]:
        """Attempts each receiver with attempts under way or a breaker not closed may
        start now; any receiver not named may start `max_in_flight`."""
        return {key: self._room(r, now) for key, r in self._receivers.items()}

    def _room(self, receiver: _Receiver, now: float) -> int:
        if receiver.opened_at is None:
            return self.max_in_flight - receiver.in_flight
        if now < receiver.opened_at + self.cooldown_s:
            return 0
        return max(0, 1 - receiver.in_flight)  # half open: one probe at a time

    def started(self, key: str) -> None:
        self._receivers.setdefault(key, _Receiver()).in_flight += 1

    def finished(self, key: str, ok: bool | None, now: float) -> bool:
        """Count an attempt that has ended; `ok` is None when it asked nothing of the
        receiver (the webhook was disabled, or its secret could not be opened). True
        when this attempt tripped a closed breaker (a failed probe opens it again quietly)."""
        receiver = self._receivers[key]
        receiver.in_flight -= 1
        tripped = False
        if ok:
            receiver.failures, receiver.opened_at = 0, None
        elif ok is not None:
            receiver.failures += 1
            probed = receiver.opened_at is not None and now >= receiver.opened_at + self.cooldown_s
            tripped = receiver.opened_at is None and receiver.failures >= self.failures
            if probed or tripped:
                receiver.opened_at = now
        if receiver == _Receiver():
            del self._receivers[key]
        return tripped

    @property
    def in_flight(self) -> int:
        return sum(r.in_flight for r in self._receivers.values())

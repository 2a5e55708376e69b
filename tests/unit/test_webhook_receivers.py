"""How many attempts each webhook receiver may be sent: a limit of attempts under way
and a circuit breaker per receiver (`service.domain.webhook_receivers`)."""

from __future__ import annotations

import pytest

from service.domain.webhook_receivers import ReceiverGate
from service.environment import SettingsError
from service.settings import Settings


def _gate() -> ReceiverGate:
    return ReceiverGate(max_in_flight=2, failures=3, cooldown_s=10.0)


def _fail(gate: ReceiverGate, key: str, times: int, now: float = 0.0) -> list[bool]:
    opened = []
    for _ in range(times):
        gate.started(key)
        opened.append(gate.finished(key, False, now))
    return opened


def test_a_receiver_never_seen_is_not_named_and_may_start_the_limit() -> None:
    gate = _gate()
    assert gate.room(0.0) == {} and gate.in_flight == 0


def test_attempts_under_way_use_up_their_own_receivers_room_only() -> None:
    gate = _gate()
    gate.started("a")
    gate.started("a")
    gate.started("b")
    assert gate.room(0.0) == {"a": 0, "b": 1} and gate.in_flight == 3
    gate.finished("a", True, 0.0)
    assert gate.room(0.0) == {"a": 1, "b": 1}


def test_failures_in_a_row_open_the_breaker_for_the_cooldown() -> None:
    gate = _gate()
    assert _fail(gate, "a", 3) == [False, False, True]
    assert gate.room(9.9) == {"a": 0}


def test_a_success_between_failures_starts_the_count_again() -> None:
    gate = _gate()
    _fail(gate, "a", 2)
    gate.started("a")
    gate.finished("a", True, 0.0)
    assert _fail(gate, "a", 2) == [False, False]
    assert gate.room(0.0) == {"a": 2}


def test_after_the_cooldown_one_probe_goes_out_at_a_time() -> None:
    gate = _gate()
    _fail(gate, "a", 3)
    assert gate.room(10.0) == {"a": 1}
    gate.started("a")
    assert gate.room(10.0) == {"a": 0}


def test_a_failed_probe_opens_the_breaker_for_another_cooldown() -> None:
    gate = _gate()
    _fail(gate, "a", 3)
    assert _fail(gate, "a", 1, now=10.0) == [False]  # opened again, not tripped anew
    assert gate.room(19.9) == {"a": 0} and gate.room(20.0) == {"a": 1}


def test_a_probe_that_succeeds_closes_the_breaker_and_forgets_the_receiver() -> None:
    gate = _gate()
    _fail(gate, "a", 3)
    gate.started("a")
    gate.finished("a", True, 10.0)
    assert gate.room(10.0) == {}


def test_an_attempt_started_before_the_breaker_opened_and_failing_after_does_not_extend_it() -> (
    None
):
    gate = _gate()
    gate.started("a")  # still under way when the breaker opens
    _fail(gate, "a", 3)
    assert gate.finished("a", False, 5.0) is False
    assert gate.room(10.0) == {"a": 1}


def test_an_attempt_that_asked_nothing_of_the_receiver_counts_for_nothing() -> None:
    gate = _gate()
    _fail(gate, "a", 2)
    gate.started("a")
    assert gate.finished("a", None, 0.0) is False
    assert _fail(gate, "a", 1) == [True]


def test_receivers_trip_their_own_breakers() -> None:
    gate = _gate()
    _fail(gate, "a", 3)
    _fail(gate, "b", 2)
    assert gate.room(0.0) == {"a": 0, "b": 2}


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("GOVERNANCE_WEBHOOK_MAX_IN_FLIGHT_PER_RECEIVER", "0"),
        ("GOVERNANCE_WEBHOOK_BREAKER_FAILURES", "0"),
        ("GOVERNANCE_WEBHOOK_BREAKER_COOLDOWN", "-1"),
    ],
)
def test_a_gate_that_could_never_send_stops_the_start(variable: str, value: str) -> None:
    with pytest.raises(SettingsError, match=variable):
        Settings.from_env({variable: value})

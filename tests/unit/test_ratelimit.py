from service.ratelimit import FailureWindow, TokenBuckets


def test_a_burst_is_allowed_then_refused_then_refilled() -> None:
    buckets = TokenBuckets(per_second=10, burst=3)
    decisions = [buckets.take("t", now=100.0) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert decisions[-1].retry_after_s >= 1
    assert "Retry-After" in decisions[-1].headers()
    assert buckets.take("t", now=100.2).allowed


def test_buckets_are_per_token() -> None:
    buckets = TokenBuckets(per_second=1, burst=1)
    assert buckets.take("a", now=0).allowed
    assert buckets.take("b", now=0).allowed
    assert not buckets.take("a", now=0).allowed


def test_headers_report_limit_remaining_and_reset() -> None:
    decision = TokenBuckets(per_second=100, burst=200).take("t", now=0)
    assert decision.headers() == {
        "RateLimit-Limit": "200",
        "RateLimit-Remaining": "199",
        "RateLimit-Reset": "1",
    }


def test_failures_block_a_client_for_the_rest_of_the_window() -> None:
    window = FailureWindow(max_failures=2)
    window.record("1.2.3.4", now=0)
    assert window.blocked_for("1.2.3.4", now=1) == 0
    window.record("1.2.3.4", now=1)
    assert window.blocked_for("1.2.3.4", now=2) == 58
    assert window.blocked_for("5.6.7.8", now=2) == 0
    assert window.blocked_for("1.2.3.4", now=61) == 0

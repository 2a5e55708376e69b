"""The tests' one way of waiting: `eventually` retries until a deadline."""

from __future__ import annotations

import itertools

import pytest

from tests.support.waiting import eventually


def test_the_first_truthy_answer_is_returned() -> None:
    answers = iter([None, 0, "", "done", "later"])
    assert eventually(lambda: next(answers), interval=0) == "done"


def test_a_failed_assertion_means_not_yet() -> None:
    tries = itertools.count(1)

    def third_time() -> int:
        n = next(tries)
        assert n >= 3, f"only {n}"
        return n

    assert eventually(third_time, interval=0) == 3


def test_the_failure_names_the_wait_and_the_last_answer() -> None:
    with pytest.raises(
        AssertionError, match=r"the count: not so after 0.05s \(\d+ tries\); last: 0"
    ):
        eventually(lambda: 0, timeout=0.05, interval=0.01, what="the count")


def test_the_failure_carries_the_last_assertion() -> None:
    def never() -> bool:
        raise AssertionError("still 3 pending")

    with pytest.raises(AssertionError, match="last: AssertionError: still 3 pending") as info:
        eventually(never, timeout=0.05, interval=0.01)
    assert isinstance(info.value.__cause__, AssertionError)
    assert "never" in str(info.value)


def test_other_errors_end_the_wait_at_once() -> None:
    tries = itertools.count(1)

    def broken() -> bool:
        next(tries)
        raise KeyError("items")

    with pytest.raises(KeyError):
        eventually(broken, timeout=5)
    assert next(tries) == 2


def test_errors_named_in_retry_on_are_retried() -> None:
    tries = itertools.count(1)

    def refused_twice() -> str:
        if next(tries) < 3:
            raise ConnectionRefusedError
        return "up"

    assert eventually(refused_twice, interval=0, retry_on=(ConnectionRefusedError,)) == "up"
